import Quire

/// One item of `/updateDatabase` or `/verifyDocuments` (the protocol's `DatabaseUpdateItem`):
/// what happens to one document.
struct DocumentDelta: Sendable {
    /// What kind of change.
    enum Kind: String, Sendable {
        case update = "UPDATE"
        case delete = "DELETE"
        case purge = "PURGE"
    }

    let kind: Kind
    let collection: CollectionPath
    let documentID: String
    /// Each object's key paths and values, objects in order, paths within one in sorted order.
    let updatedProperties: [[(path: PropertyPath, value: JSONValue)]]
    let removedProperties: [PropertyPath]
    /// Key paths and the blob files to put there.
    let updatedBlobs: [(path: PropertyPath, reference: String)]

    init(_ item: RequestObject) throws {
        let type = try item.string("type")
        guard let kind = Kind(rawValue: type.uppercased()) else {
            throw TestServerError.request("'\(item.name("type"))' must be UPDATE, DELETE or PURGE, not '\(type)'")
        }
        self.kind = kind
        collection = try CollectionPath(try item.string("collection"))
        documentID = try item.string("documentID")
        guard !documentID.isEmpty else { throw TestServerError.request("'\(item.name("documentID"))' is empty") }
        var updated: [[(path: PropertyPath, value: JSONValue)]] = []
        if let value = item.value("updatedProperties") {
            guard case .array(let objects) = value else {
                throw TestServerError.request("'\(item.name("updatedProperties"))' must be an array of objects")
            }
            for (index, object) in objects.enumerated() {
                guard case .object(let members) = object else {
                    throw TestServerError.request("'\(item.name("updatedProperties"))[\(index)]' must be an object")
                }
                updated.append(try members.keys.sorted().map { (try PropertyPath($0), members[$0] ?? .null) })
            }
        }
        updatedProperties = updated
        removedProperties = try (item.optionalStrings("removedProperties") ?? []).map(PropertyPath.init)
        var blobs: [(path: PropertyPath, reference: String)] = []
        if let object = try item.optionalObject("updatedBlobs") {
            for key in object.members.keys.sorted() {
                blobs.append((try PropertyPath(key), try object.string(key)))
            }
        }
        updatedBlobs = blobs
    }

    /// `body` with this item's changes applied; `blob` turns a blob reference into the blob's
    /// properties (saving its content where it must be).
    func apply(to body: [String: JSONValue], blob: (String) throws -> JSONValue) throws -> [String: JSONValue] {
        var result = body
        for object in updatedProperties {
            for (path, value) in object { try path.set(value, in: &result) }
        }
        for path in removedProperties { path.remove(from: &result) }
        for (path, reference) in updatedBlobs { try path.set(try blob(reference), in: &result) }
        return result
    }
}
