import Foundation
import Quire

extension QuireSession {
    /// The steps on documents by ID and document objects held by name: save, get, delete, purge, typed reads, expiration.
    func documentStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .save(let save):
            return try self.save(save, returning: !context.discardsResult, holdingAs: context.objectName)
        case .get(let reference):
            let collection = try collection(reference.collection)
            if let name = context.objectName, let document = try collection.document(id: reference.id) {
                objects[name] = document
            }
            return try snapshot(collection, id: reference.id)?.specValue ?? .null
        case .saveObject(let save):
            return try saveObject(save)
        case .deleteObject(let name, let collectionName, let concurrency):
            let document = try object(name)
            let owner = try collectionName.map { try collection($0) } ?? document.collection ?? collection(.default)
            let control: ConcurrencyControl = concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
            guard try owner.delete(document: document, concurrencyControl: control) else {
                throw QuireError(
                    .conflict, "document '\(document.id)' in \(owner.fullName) was changed since '\(name)' was read")
            }
            return try QuireSession.state(of: document)
        case .toMutable(let name):
            if objects[name] == nil, let value = heldValues[name] {
                return try mutableCopy(of: value, name: name, holdingAs: context.objectName)
            }
            let copy = try object(name).toMutable()
            if let held = context.objectName { objects[held] = copy }
            return try QuireSession.state(of: copy)
        case .object(let name):
            if objects[name] == nil, let value = heldValues[name] { return try heldState(of: value) }
            return try QuireSession.state(of: try object(name))
        case .purgeObject(let name, let collectionName, let databaseName):
            let document = try object(name)
            let database = try databaseName.map { try self.database(named: $0) } ?? current
            let owner: Collection
            if let collectionName {
                owner = try collection(collectionName, in: database)
            } else if databaseName != nil {
                owner = try database.defaultCollection()
            } else {
                owner = try document.collection ?? collection(.default)
            }
            try owner.purge(document: document)
            return nil
        case .delete(let delete):
            try self.delete(delete)
            return nil
        case .purge(let reference):
            try collection(reference.collection).purge(id: reference.id)
            return nil
        case .setExpiration(let reference, let expiration):
            let date: Date?
            switch expiration {
            case .at(let when)?: date = when
            case .after(let seconds)?: date = clock.now.addingTimeInterval(seconds)
            case nil: date = nil
            }
            try collection(reference.collection).setDocumentExpiration(id: reference.id, expiration: date)
            return nil
        case .getExpiration(let reference):
            let date = try collection(reference.collection).getDocumentExpiration(id: reference.id)
            return date.map { .int(Int(($0.timeIntervalSince1970 * 1000).rounded(.down))) } ?? .null
        case .advanceClock(let seconds):
            guard let manualClock else {
                throw EngineError(
                    domain: EngineError.conformanceDomain, code: "invalidSpec",
                    message: "advanceClock needs a manual clock: set `given: {clock: {manual: ...}}`")
            }
            manualClock.advance(by: seconds)
            return nil
        case .getValue(let read):
            return try QuireTypedReads.value(read, in: try collection(read.document.collection))
        default: throw EngineError.misrouted(step, to: "documentStep")
        }
    }

    /// The document object held under `name`; the runner refuses a name no step gave.
    func object(_ name: String) throws -> Document {
        guard let document = objects[name] else {
            let known = objects.keys.sorted()
            throw EngineError.refusal(
                "noSuchObject",
                "no document object is held as '\(name)' (a get, save or toMutable step with `as: \(name)` holds one)"
                    + (known.isEmpty ? "" : "; held: \(known.joined(separator: ", "))"))
        }
        return document
    }

    /// A document object's own state: what the app would read from the object it holds.
    static func state(of document: Document) throws -> SpecValue {
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else {
            throw QuireError(.unexpectedError, "document '\(document.id)' did not serialise as a JSON object")
        }
        var value = members.mapValues(SpecValue.init(json:))
        value[DocumentSnapshot.metaKey] = .object([
            "id": .string(document.id),
            "collection": document.collection.map { SpecValue.string($0.fullName) } ?? .null,
            "revisionID": document.revisionID.map(SpecValue.string) ?? .null,
            "sequence": .int(Int(document.sequence)),
            "isDeleted": .bool(document.isDeleted),
            "mutable": .bool(document is MutableDocument),
        ])
        return .object(value)
    }

    func saveObject(_ save: Step.ObjectSave) throws -> SpecValue {
        let held = try object(save.name)
        guard let document = held as? MutableDocument else {
            throw EngineError.refusal(
                "notMutable",
                "'\(save.name)' is an immutable Document, which cannot be saved; make a copy with toMutable")
        }
        for (key, value) in save.merge { document.setValue(value.jsonValue.anyValue, forKey: key) }
        for key in save.unset { document.removeValue(forKey: key) }
        let database = try save.database.map { try self.database(named: $0) } ?? current
        let target: Collection
        if let name = save.collection {
            target = try collection(name, in: database)
        } else if save.database != nil {
            target = try database.defaultCollection()
        } else {
            target = try document.collection ?? collection(.default)
        }
        if let choice = save.conflictHandler {
            return try QuireConflictSave.save(document, in: target, choice: choice, state: QuireSession.state(of:))
        }
        let control: ConcurrencyControl = save.concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
        guard try target.save(document: document, concurrencyControl: control) else {
            throw QuireError(
                .conflict, "document '\(document.id)' in \(target.fullName) was changed since '\(save.name)' was read")
        }
        return try QuireSession.state(of: document)
    }

    func save(_ save: Step.Save, returning: Bool = true, holdingAs name: String? = nil) throws -> SpecValue? {
        let collection = try collection(save.collection)
        let body: [String: Any]
        switch save.content {
        case .properties(let properties):
            body = properties.mapValues { $0.jsonValue.anyValue }
        case .json(let text):
            body = try MutableDocument(json: text).toDictionary()
        }
        let document: MutableDocument
        if let base = save.baseRevisionID, let id = save.id,
            let stored = try collection.document(id: id), stored.revisionID == base
        {
            document = stored.toMutable()
            document.setData(body)
        } else if let base = save.baseRevisionID, let id = save.id, save.concurrency == .failOnConflict {
            // The runner found `from` stale and never asked the store (`object:` asks it).
            throw EngineError.refusal(
                "conflict", "document '\(id)' in \(collection.fullName) changed since revision \(base) of 'from'")
        } else if case .json(let text) = save.content {
            // Made from the text itself, as an app does: a dictionary of it would merge keys
            // that differ only in Unicode normalisation, which the document keeps apart.
            document = try MutableDocument(id: save.id, json: text)
        } else {
            document = MutableDocument(id: save.id, data: body)
        }
        let control: ConcurrencyControl = save.concurrency == .failOnConflict ? .failOnConflict : .lastWriteWins
        guard try collection.save(document: document, concurrencyControl: control) else {
            throw EngineError(
                domain: QuireError.Domain.quire.rawValue, code: QuireError.Code.conflict.name,
                message: "document '\(document.id)' in \(collection.fullName) was changed by another save")
        }
        if let name { objects[name] = document }
        guard returning else { return nil }
        return try snapshot(collection, id: document.id)?.specValue ?? .null
    }

    func delete(_ delete: Step.Delete) throws {
        let reference = delete.document
        let collection = try collection(reference.collection)
        // A tombstone is deleted as the Document object an app holds after deleting it: the
        // stored tombstone revision.
        let current = try collection.document(id: reference.id)
        let tombstone =
            try current == nil
            ? collection.revisionInfo(id: reference.id).flatMap { info in
                info.isDeleted ? try collection.document(id: reference.id, revisionID: info.revisionID) : nil
            } : nil
        guard let stored = current ?? tombstone else {
            // No document object to give the store: the runner refuses, the store is never asked.
            throw EngineError.refusal(
                "notFound",
                "document '\(reference.id)' not found in \(collection.fullName), so there is no object to delete")
        }
        if delete.concurrency == .failOnConflict, let base = delete.baseRevisionID, base != stored.revisionID {
            throw EngineError.refusal(
                "conflict",
                "document '\(reference.id)' in \(collection.fullName) changed since revision \(base) of 'from'")
        }
        try collection.delete(document: stored)
    }

    func snapshot(_ collection: Collection, id: String) throws -> DocumentSnapshot? {
        guard let document = try collection.document(id: id), let revisionID = document.revisionID else { return nil }
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else { return nil }
        let expiration = try collection.getDocumentExpiration(id: id)
        return DocumentSnapshot(
            DocumentReference(id, in: CollectionName(collection.name, scope: collection.scope.name)),
            revisionID: revisionID, sequence: Int(document.sequence),
            properties: members.mapValues(SpecValue.init(json:)),
            expiration: expiration.map { Int(($0.timeIntervalSince1970 * 1000).rounded(.down)) })
    }
}
