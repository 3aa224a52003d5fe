import Foundation
import QuireConformance

/// A test double for the runner: a small in-memory document store that follows the rules the
/// specs check (Couchbase Lite's names, reserved keys, tombstones, batches, expiration on a
/// manual clock, close and reopen, copies). It exists to exercise the runner, not to be a
/// store; it persists nothing and does not implement queries.
struct MemoryEngine: ConformanceEngine {
    let name = "memory"

    func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        try MemorySession(directory: directory, given: given)
    }
}

/// One case's databases, by name.
final class MemorySession: EngineSession {
    struct Record: Equatable {
        var revisionID: String
        var sequence: Int
        var properties: [String: SpecValue]
        var deleted: Bool
        var expiration: Int?
    }

    struct Store: Equatable {
        var collections: [CollectionName: [String: Record]] = [.default: [:]]
        var indexes: [CollectionName: Set<String>] = [:]
        var lastSequence = 0
    }

    private let directory: URL
    private var databases: [String: Store] = [:]
    private var current: String
    private var isOpen = true
    private var now: Date
    private var blobs: Set<String> = []
    private var closed = false

    init(directory: URL, given: Given) throws {
        self.directory = directory
        current = given.database
        switch given.clock {
        case .system: now = Date()
        case .manual(let start): now = start
        }
        databases[current] = Store()
        if let fixture = given.fixture { try install(fixture) }
    }

    // MARK: EngineSession

    func perform(_ step: Step, in context: StepContext) throws -> SpecValue? {
        guard !closed else { throw error("notOpen", "the session is closed") }
        switch step {
        case .open(let name):
            current = name
            if databases[name] == nil { databases[name] = Store() }
            isOpen = true
            return nil
        case .close:
            isOpen = false
            return nil
        case .reopen:
            isOpen = true
            purgeExpired()
            return nil
        case .databaseExists(let name):
            return .bool(databases[name] != nil)
        case .deleteDatabase(let name):
            guard databases.removeValue(forKey: name) != nil else { throw error("notFound", "no database '\(name)'") }
            return nil
        case .copyDatabase(let copy):
            guard case .database(let source) = copy.source else { throw EngineError.unsupported("copying from a path") }
            guard let store = databases[source] else { throw error("notFound", "no database '\(source)'") }
            guard databases[copy.destination] == nil else {
                throw EngineError(domain: "POSIX", code: "conflict", message: "database '\(copy.destination)' exists")
            }
            databases[copy.destination] = store
            return nil
        case .advanceClock(let seconds):
            now += seconds
            purgeExpired()
            return nil
        default:
            guard isOpen else { throw error("notOpen", "database '\(current)' is closed") }
            return try performOnStore(step)
        }
    }

    private func performOnStore(_ step: Step) throws -> SpecValue? {
        switch step {
        case .createCollection(let name):
            try validate(name)
            if store.collections[name] == nil { store.collections[name] = [:] }
            return info(name)
        case .deleteCollection(let name):
            guard name != .default else { throw error("invalidParameter", "the default collection cannot be deleted") }
            store.collections[name] = nil
            return nil
        case .collection(let name):
            return store.collections[name] == nil ? .null : info(name)
        case .collections(let scope):
            return .array(
                store.collections.keys.filter { $0.scope == scope }.map(\.name).sorted().map(SpecValue.string))
        case .scope(let name):
            return store.collections.keys.contains { $0.scope == name } ? ["name": .string(name)] : .null
        case .scopes:
            return .array(Set(store.collections.keys.map(\.scope)).sorted().map(SpecValue.string))
        case .save(let save):
            return try self.save(save).specValue
        case .get(let reference):
            guard let record = try records(reference.collection)[reference.id], !record.deleted else { return .null }
            return snapshot(reference, record).specValue
        case .delete(let delete):
            let reference = delete.document
            guard let record = try records(reference.collection)[reference.id], !record.deleted else {
                throw error("notFound", "no document \(reference)")
            }
            if delete.concurrency == .failOnConflict, let base = delete.baseRevisionID, base != record.revisionID {
                throw error("conflict", "document \(reference) changed since \(base)")
            }
            try write(reference, properties: [:], deleted: true, after: record)
            return nil
        case .purge(let reference):
            guard try records(reference.collection)[reference.id] != nil else {
                throw error("notFound", "no document \(reference)")
            }
            store.collections[reference.collection]?[reference.id] = nil
            return nil
        case .count(let collection):
            return .int(try records(collection).values.filter { !$0.deleted }.count)
        case .setExpiration(let reference, let expiration):
            guard let record = try records(reference.collection)[reference.id], !record.deleted else {
                throw error("notFound", "no document \(reference)")
            }
            let date: Date? =
                switch expiration {
                case .at(let date)?: date
                case .after(let seconds)?: now + seconds
                case nil: nil
                }
            store.collections[reference.collection]?[reference.id]?.expiration = date.map {
                Int(($0.timeIntervalSince1970 * 1000).rounded())
            }
            return nil
        case .getExpiration(let reference):
            guard let record = try records(reference.collection)[reference.id], !record.deleted else {
                throw error("notFound", "no document \(reference)")
            }
            return record.expiration.map(SpecValue.int) ?? .null
        case .createIndex(let index):
            _ = try records(index.collection)
            store.indexes[index.collection, default: []].insert(index.name)
            return nil
        case .deleteIndex(let name, let collection):
            store.indexes[collection]?.remove(name)
            return nil
        case .indexes(let collection):
            return .array((store.indexes[collection] ?? []).sorted().map(SpecValue.string))
        default:
            throw EngineError.unsupported("the step '\(step.keyword)'")
        }
    }

    func inBatch(_ body: () throws -> Void) throws {
        guard isOpen else { throw error("notOpen", "database '\(current)' is closed") }
        let saved = store
        do {
            try body()
        } catch {
            store = saved
            throw error
        }
    }

    func documentState(of document: DocumentReference) throws -> DocumentState {
        guard let record = store.collections[document.collection]?[document.id] else { return .absent }
        return record.deleted ? .deleted(revisionID: record.revisionID) : .live(snapshot(document, record))
    }

    func isBlobStored(digest: String) throws -> Bool {
        blobs.contains(digest)
    }

    func runBaseline(named name: String, iterations: Int, in context: StepContext) throws {
        switch name {
        case "memoryInsert":
            var table: [String: [String: SpecValue]] = [:]
            for index in 0..<iterations { table["doc-\(index)"] = ["n": .int(index)] }
            guard table.count == iterations else { throw error("unexpectedError", "lost rows") }
        case "nothing":
            return
        default:
            throw EngineError.unsupported("the baseline '\(name)'")
        }
    }

    func close() throws {
        closed = true
    }

    // MARK: Store

    private var store: Store {
        get { databases[current] ?? Store() }
        set { databases[current] = newValue }
    }

    private func records(_ collection: CollectionName) throws -> [String: Record] {
        guard let records = store.collections[collection] else {
            throw error("notOpen", "collection \(collection) does not exist")
        }
        return records
    }

    private func save(_ save: Step.Save) throws -> DocumentSnapshot {
        let properties: [String: SpecValue]
        switch save.content {
        case .properties(let given): properties = given
        case .json(let text):
            guard let object = try JSONText.parse(text).objectValue else {
                throw error("corruptData", "the JSON is not an object")
            }
            properties = object
        }
        for key in ["_id", "_rev", "_deleted"] where properties[key] != nil {
            throw error("corruptRevisionData", "the top-level key '\(key)' is reserved")
        }
        let reference = DocumentReference(save.id ?? UUID().uuidString.lowercased(), in: save.collection)
        let existing = try records(save.collection)[reference.id]
        if save.concurrency == .failOnConflict, let existing, existing.revisionID != save.baseRevisionID {
            throw error("conflict", "document \(reference) changed since \(save.baseRevisionID ?? "it was made")")
        }
        collectBlobs(in: .object(properties))
        return try write(reference, properties: properties, deleted: false, after: existing)
    }

    @discardableResult
    private func write(
        _ reference: DocumentReference, properties: [String: SpecValue], deleted: Bool, after parent: Record?
    ) throws -> DocumentSnapshot {
        let generation = (parent?.revisionID.split(separator: "-").first.flatMap { Int($0) } ?? 0) + 1
        let digest = Self.digest("\(parent?.revisionID ?? "")|\(deleted)|\(SpecValue.object(properties))")
        store.lastSequence += 1
        let record = Record(
            revisionID: "\(generation)-\(digest)", sequence: store.lastSequence, properties: properties,
            deleted: deleted, expiration: deleted ? nil : parent?.expiration)
        store.collections[reference.collection]?[reference.id] = record
        return snapshot(reference, record)
    }

    private func purgeExpired() {
        let limit = Int((now.timeIntervalSince1970 * 1000).rounded())
        for name in databases.keys {
            for (collection, records) in databases[name]?.collections ?? [:] {
                databases[name]?.collections[collection] = records.filter { ($0.value.expiration ?? Int.max) > limit }
            }
        }
    }

    private func collectBlobs(in value: SpecValue) {
        switch value {
        case .object(let members):
            if members["@type"] == "blob", members["data"] != nil, let digest = members["digest"]?.stringValue {
                blobs.insert(digest)
            }
            members.values.forEach(collectBlobs)
        case .array(let elements):
            elements.forEach(collectBlobs)
        default:
            break
        }
    }

    /// Reads a JSON fixture: `{"scope.collection": {"id": {properties}}}`.
    private func install(_ fixture: URL) throws {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        for (collection, documents) in try JSONText.parse(text).objectValue ?? [:] {
            let name = CollectionName(fullName: collection)
            if store.collections[name] == nil { store.collections[name] = [:] }
            for (id, body) in documents.objectValue ?? [:] {
                try write(
                    DocumentReference(id, in: name), properties: body.objectValue ?? [:], deleted: false, after: nil)
            }
        }
    }

    private func validate(_ name: CollectionName) throws {
        for part in [name.scope, name.name] where part != CollectionName.defaultName {
            let allowed = part.unicodeScalars.allSatisfy {
                ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0)
                    || "_-%".unicodeScalars.contains($0)
            }
            guard allowed, (1...251).contains(part.count), !part.hasPrefix("_"), !part.hasPrefix("%") else {
                throw error("invalidParameter", "invalid name \(JSONText.quote(part))")
            }
        }
    }

    private func info(_ name: CollectionName) -> SpecValue {
        ["name": .string(name.name), "scope": .string(name.scope), "fullName": .string(name.fullName)]
    }

    private func snapshot(_ reference: DocumentReference, _ record: Record) -> DocumentSnapshot {
        DocumentSnapshot(
            reference, revisionID: record.revisionID, sequence: record.sequence,
            properties: record.properties, expiration: record.expiration)
    }

    private func error(_ code: String, _ message: String) -> EngineError {
        EngineError(domain: "Quire", code: code, message: message)
    }

    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
