import Foundation

/// The blobs that the stored documents of a database refer to, at any depth, found by
/// reading every body of every collection (live documents and tombstones) with the JSON
/// codec, so that "a blob reference" means exactly what it means to documents
/// (``Blob/isBlob(properties:)``).
struct BlobReferences {
    /// Where a digest is referred to from, per length the references give (nil: no valid
    /// length): the first document found, as `scope.collection/id`.
    private(set) var locations: [String: [UInt64?: String]] = [:]

    /// Every digest referred to.
    var digests: Set<String> { Set(locations.keys) }

    /// Reads every collection's bodies through `connection` (one snapshot).
    static func scan(_ connection: Connection) throws -> BlobReferences {
        var references = BlobReferences()
        let collections = try connection.query("SELECT id, scope, name FROM quire_collections ORDER BY id") {
            (StoreSchema.tableName($0.int64(at: 0)), "\($0.text(at: 1) ?? "").\($0.text(at: 2) ?? "")")
        }
        for (table, fullName) in collections {
            // Blob references are written by the canonical JSON writer, which never escapes
            // "@type", and a stored body keeps that key quoted (`@` starts no bare key,
            // `quire_body.h`), so bodies without that text need not be parsed.
            let statement = try connection.prepare(
                "SELECT key, quire_body(body) FROM \(table) WHERE instr(body, '\"@type\"') > 0")
            while try statement.step() {
                let location = "\(fullName)/\(statement.text(at: 0) ?? "")"
                let body: JSONValue
                do {
                    body = try statement.withUnsafeBytes(at: 1) { try JSONReader.parse($0) }
                } catch {
                    throw QuireError(
                        .corruptRevisionData, "stored body of document \(location) is not valid JSON: \(error)")
                }
                references.collect(body, location: location)
            }
        }
        return references
    }

    private mutating func collect(_ value: JSONValue, location: String) {
        switch value {
        case .object(let members):
            if Blob.isBlob(json: members), let digest = members["digest"]?.stringValue {
                let length = members["length"]?.int64Value.flatMap { $0 >= 0 ? UInt64($0) : nil }
                if locations[digest]?[length] == nil { locations[digest, default: [:]][length] = location }
                return
            }
            for member in members.values { collect(member, location: location) }
        case .array(let elements):
            for element in elements { collect(element, location: location) }
        default:
            break
        }
    }
}
