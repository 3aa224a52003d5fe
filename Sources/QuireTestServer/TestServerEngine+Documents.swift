import Foundation
import Quire

extension TestServerEngine {
    /// The current body of a live document, nil when it is missing or deleted.
    static func body(of id: String, in collection: Collection) throws -> [String: JSONValue]? {
        guard let document = try collection.document(id: id) else { return nil }
        guard case .object(let members) = try JSONReader.parse(document.toJSON()) else { return [:] }
        return members.dictionary
    }

    /// `/getAllDocuments`: IDs and revision IDs of the live documents of the collections found.
    func getAllDocuments(_ request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        var result: [String: JSONValue] = [:]
        for name in try request.strings("collections") {
            let path = try CollectionPath(name)
            guard let collection = try database.collection(name: path.collection, scope: path.scope) else { continue }
            result[name] = .array(
                try collection.liveDocuments().map { .object(["id": .string($0.id), "rev": .string($0.revisionID)]) })
        }
        return .json(.object(result))
    }

    /// `/getDocument`: a document's properties with `_id` and `_revs` (its revision history,
    /// current first); 404 when it does not exist.
    func getDocument(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let document = try request.object("document")
        let path = try CollectionPath(try document.string("collection"))
        let id = try document.string("id")
        let collection = try path.existing(in: database, databaseName: name)
        guard var body = try Self.body(of: id, in: collection),
            let current = try collection.leaves(id: id).first(where: \.isCurrent)
        else {
            throw missingDocument(id, in: path, of: name)
        }
        let history =
            current.ancestors.first == current.revisionID ? current.ancestors : [current.revisionID] + current.ancestors
        body["_id"] = .string(id)
        body["_revs"] = .string(history.joined(separator: ", "))
        return .json(.object(body))
    }

    /// The blob a reference names, saved in `database`, as the properties a document holds.
    func savedBlob(_ reference: String, in database: Database) throws -> JSONValue {
        let blob = try catalog.blob(reference)
        try database.saveBlob(blob: blob)
        return JSONValue(any: blob.properties) ?? .null
    }

    /// `/updateDatabase`: every update, deletion and purge in one batch; all or nothing.
    func updateDatabase(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let deltas = try request.objects("updates").map(DocumentDelta.init)
        let collections = try Dictionary(
            Set(deltas.map(\.collection)).map { ($0, try $0.existing(in: database, databaseName: name)) },
            uniquingKeysWith: { first, _ in first })
        try database.inBatch {
            for delta in deltas {
                guard let collection = collections[delta.collection] else { continue }
                switch delta.kind {
                case .update:
                    let existing = try collection.document(id: delta.documentID)
                    let body = try Self.body(of: delta.documentID, in: collection) ?? [:]
                    let updated = try delta.apply(to: body) { try savedBlob($0, in: database) }
                    let text = String(decoding: try JSONWriter.bytes(.object(updated)), as: UTF8.self)
                    let document = existing?.toMutable() ?? MutableDocument(id: delta.documentID)
                    _ = try document.setJSON(text)
                    try collection.save(document: document)
                case .delete:
                    if let existing = try collection.document(id: delta.documentID) {
                        try collection.delete(document: existing)
                    }
                case .purge:
                    do {
                        try collection.purge(id: delta.documentID)
                    } catch let error as QuireError where error.code == .notFound {
                        // Purging what is not there leaves it not there.
                    }
                }
            }
        }
        return .ok
    }

    /// `/snapshotDocuments`: keeps the documents' current bodies (nil when missing) for
    /// `/verifyDocuments`.
    func snapshotDocuments(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        var snapshot: [String: (collection: CollectionPath, id: String, body: [String: JSONValue]?)] = [:]
        for document in try request.objects("documents") {
            let path = try CollectionPath(try document.string("collection"))
            let id = try document.string("id")
            let collection = try path.existing(in: database, databaseName: name)
            snapshot["\(path)\u{0}\(id)"] = (path, id, try Self.body(of: id, in: collection))
        }
        let id = UUID().uuidString.lowercased()
        snapshots[id] = snapshot
        return .json(.object(["id": .string(id)]))
    }

    /// `/verifyDocuments`: checks the changes listed against the snapshot and every other
    /// document of the snapshot as unchanged; the first failure is described.
    func verifyDocuments(_ request: RequestObject) throws -> TestServerResponse {
        let (name, database) = try database(request)
        let snapshotID = try request.string("snapshot")
        guard let snapshot = snapshots[snapshotID] else {
            throw TestServerError.request("snapshot '\(snapshotID)' not found")
        }
        let deltas = try request.objects("changes").map(DocumentDelta.init)
        var verified: Set<String> = []
        func failure(_ id: String, _ path: CollectionPath, _ reason: String) -> TestServerResponse {
            .json(.object(["result": false, "description": .string("Document '\(id)' in '\(path)' \(reason)")]))
        }
        func compare(_ id: String, _ path: CollectionPath, actual: [String: JSONValue], expected: [String: JSONValue])
            -> TestServerResponse?
        {
            let blobExists = { (properties: [String: JSONValue]) -> Bool in
                ((try? database.getBlob(properties: properties.mapValues(\.anyValue))) ?? nil) != nil
            }
            guard
                let difference = DocumentComparison.firstDifference(
                    actual: actual, expected: expected, blobExists: blobExists)
            else { return nil }
            let keyPath = try? PropertyPath(difference.path)
            var result: [String: JSONValue] = [
                "result": false,
                "description": .string(
                    "Document '\(id)' in '\(path)' "
                        + (difference.missingBlob
                            ? "had non-existing blob at key '\(difference.path)'"
                            : "had unexpected properties at key '\(difference.path)'")),
                "document": .object(actual),
            ]
            if let value = keyPath?.value(in: actual) { result["actual"] = value }
            if let value = keyPath?.value(in: expected) { result["expected"] = value }
            return .json(.object(result))
        }
        for delta in deltas {
            let key = "\(delta.collection)\u{0}\(delta.documentID)"
            let snapped = snapshot[key]
            guard snapped != nil || delta.kind == .update else {
                throw TestServerError.request(
                    "document '\(delta.documentID)' in '\(delta.collection)' is not in the snapshot")
            }
            verified.insert(key)
            let collection = try delta.collection.existing(in: database, databaseName: name)
            let actual = try Self.body(of: delta.documentID, in: collection)
            switch delta.kind {
            case .update:
                guard let actual else { return failure(delta.documentID, delta.collection, "was not found") }
                let expected = try delta.apply(to: snapped?.body ?? [:]) { try savedBlob($0, in: database) }
                if let failed = compare(delta.documentID, delta.collection, actual: actual, expected: expected) {
                    return failed
                }
            case .delete:
                if actual != nil { return failure(delta.documentID, delta.collection, "was not deleted") }
            case .purge:
                let leaves = try collection.leaves(id: delta.documentID)
                if actual != nil || !leaves.isEmpty {
                    return failure(delta.documentID, delta.collection, "was not purged")
                }
            }
        }
        for key in snapshot.keys.sorted() where !verified.contains(key) {
            guard let (path, id, expected) = snapshot[key] else { continue }
            let collection = try path.existing(in: database, databaseName: name)
            let actual = try Self.body(of: id, in: collection)
            switch (actual, expected) {
            case (nil, nil): continue
            case (nil, .some): return failure(id, path, "was not found")
            case (.some, nil): return failure(id, path, "should not exist")
            case (.some(let actual), .some(let expected)):
                if let failed = compare(id, path, actual: actual, expected: expected) { return failed }
            }
        }
        return .json(.object(["result": true]))
    }

    /// `/runQuery`: a SQL++ query's rows, each as an object of its columns.
    func runQuery(_ request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        let text = try request.string("query")
        let results = try database.createQuery(text).execute()
        let rows = results.allResults().map { row -> JSONValue in
            var object: [String: JSONValue] = [:]
            for key in row.keys {
                if let value = row.jsonValue(forKey: key) { object[key] = value }
            }
            return .object(object)
        }
        return .json(.object(["results": .array(rows)]))
    }

    /// `/performMaintenance`: compact, reindex, integrityCheck, optimize or fullOptimize.
    func performMaintenance(_ request: RequestObject) throws -> TestServerResponse {
        let (_, database) = try database(request)
        let name = try request.string("maintenanceType")
        guard let type = MaintenanceType.allCases.first(where: { "\($0)".caseInsensitiveCompare(name) == .orderedSame })
        else {
            throw TestServerError.request(
                "'maintenanceType' must be one of \(MaintenanceType.allCases.map { "\($0)" }.joined(separator: ", ")), not '\(name)'"
            )
        }
        try database.performMaintenance(type: type)
        return .ok
    }
}

extension TestServerEngine {
    /// A document that is not there: 404 in version 2; in version 1, as Couchbase Lite's test
    /// servers answer it, 400 `TESTSERVER` with "Document '<scope>.<collection>.<id>' not found".
    func missingDocument(_ id: String, in path: CollectionPath, of database: String) -> TestServerError {
        guard spokenVersion == 1 else {
            return .notFound("document '\(id)' not found in '\(path)' of database '\(database)'")
        }
        return .request("Document '\(path).\(id)' not found")
    }
}
