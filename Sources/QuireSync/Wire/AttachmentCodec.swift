import Foundation
import Quire

/// Carries blobs across the wire as CouchDB attachments, both ways.
///
/// Going out, each blob reference in a body (`{"@type": "blob", "digest": "sha1-…", …}`)
/// becomes an `_attachments` entry named `blob_<JSON pointer to it>` (`blob_/photo`,
/// `blob_/pages/0/scan`), as a stub or with its bytes in `data`. Attachments a body keeps
/// from CouchDB peers (legacy `_attachments`) go out the same way.
///
/// Coming in, attachment bytes are checked against their length and stored before the revision
/// that needs them, under the digest computed from them; entries that only mirror a blob
/// reference are dropped, others are kept in the body as stubs with a `sha1-` digest. A
/// revision whose blobs' bytes are missing or wrong is refused, so no stored revision ever
/// points at absent bytes.
///
/// As CouchDB does (`couch_att:inline_from_json`), the digest of inline data is computed, not
/// taken from the sender: a `digest` in a form that can be checked (`sha1-` or `md5-` over
/// Base64) must match, and one in any other form is ignored (PouchDB 2.2.3 sends `md5-<hex>`).
package struct AttachmentCodec: Sendable {
    /// The prefix of attachment names that mirror blob references.
    package static let blobPrefix = "blob_"

    /// The database whose blob store holds the bytes.
    package let database: Database

    /// A codec for `database`'s blobs.
    package init(database: Database) {
        self.database = database
    }

    // MARK: Going out

    /// Fills `document.attachments` from its body's blob references and legacy attachments;
    /// with `includeData`, each entry carries its bytes (Base64) instead of being a stub.
    package func encode(_ document: inout CouchDocument, includeData: Bool) throws {
        guard !document.isDeleted else {
            document.attachments = nil
            return
        }
        let generation = document.revisionID.flatMap { RevisionsField.split($0)?.generation } ?? 1
        var entries = JSONObject()
        for (name, meta) in document.attachments ?? [:] {
            guard case .object(var members) = meta else { continue }
            members.removeValue(forKey: "data")
            if members["revpos"] == nil { members["revpos"] = .int(Int64(generation)) }
            entries[name] = try finish(members, includeData: includeData)
        }
        for (pointer, reference) in AttachmentCodec.blobReferences(in: document.body) {
            let members: JSONObject = [
                "content_type": .string(reference["content_type"]?.stringValue ?? "application/octet-stream"),
                "digest": reference["digest"] ?? .null,
                "length": .int(reference["length"]?.int64Value ?? 0),
                "revpos": .int(Int64(generation)),
            ]
            entries[AttachmentCodec.blobPrefix + pointer.text] = try finish(members, includeData: includeData)
        }
        document.attachments = entries.isEmpty ? nil : entries
    }

    /// The bytes of the attachment `name` of a stored revision, with its content type.
    package func content(of document: CouchDocument, named name: String) throws -> (data: Data, contentType: String) {
        var copy = document
        try encode(&copy, includeData: false)
        guard let entry = copy.attachments?[name], let digest = entry["digest"]?.stringValue else {
            throw QuireError(.notFound, "document '\(document.id)' has no attachment '\(name)'")
        }
        let data = try storedData(digest: digest, length: entry["length"]?.intValue)
        return (data, entry["content_type"]?.stringValue ?? "application/octet-stream")
    }

    private func finish(_ entry: JSONObject, includeData: Bool) throws -> JSONValue {
        var members = entry
        if includeData {
            guard let digest = members["digest"]?.stringValue else {
                throw QuireError(.corruptRevisionData, "an attachment has no digest, so its bytes cannot be found")
            }
            let data = try storedData(digest: digest, length: members["length"]?.intValue)
            members["data"] = .string(data.base64EncodedString())
            members.removeValue(forKey: "stub")
            members["length"] = .int(Int64(data.count))
        } else {
            members["stub"] = .bool(true)
        }
        return .object(members)
    }

    // MARK: Coming in

    /// Checks and stores the bytes `document` brings, and returns the body to store: blob
    /// references kept, mirroring attachments dropped, other attachments kept as stubs.
    /// `known` holds attachments already stored for the document (from its leaves), by name,
    /// for stubs whose digest is not a `sha1-` one.
    ///
    /// Throws invalidParameter, naming the attachment, for bad Base64, a wrong length or
    /// digest, or a blob reference whose bytes are not here; notFound for a stub whose bytes
    /// are not here.
    package func decode(_ document: CouchDocument, known: JSONObject = [:]) throws -> JSONObject {
        guard !document.isDeleted else { return [:] }
        var body = document.body
        let references = AttachmentCodec.blobReferences(in: body)
        var kept = JSONObject()
        for (name, meta) in document.attachments ?? [:] {
            guard case .object(let members) = meta else {
                throw AttachmentCodec.failure(document.id, name, "its metadata is not an object")
            }
            let stored = try store(members, name: name, documentID: document.id, known: known[name])
            if name.hasPrefix(AttachmentCodec.blobPrefix),
                let reference = references[JSONKey(String(name.dropFirst(AttachmentCodec.blobPrefix.count)))]
            {
                guard reference["digest"]?.stringValue == stored["digest"]?.stringValue else {
                    throw AttachmentCodec.failure(
                        document.id, name, "its digest differs from the blob reference it mirrors")
                }
                continue
            }
            kept[name] = .object(stored)
        }
        for (pointer, reference) in references {
            guard let digest = reference["digest"]?.stringValue, isStored(digest: digest) else {
                let digest = reference["digest"]?.stringValue ?? "no digest"
                throw QuireError(
                    .invalidParameter,
                    "document '\(document.id)': the bytes of the blob at \(pointer.text) (\(digest)) are neither attached nor stored here"
                )
            }
        }
        if !kept.isEmpty { body["_attachments"] = .object(kept) }
        return body
    }

    /// Stores one incoming attachment's bytes (or finds a stub's) and returns its stub form.
    private func store(
        _ members: JSONObject, name: String, documentID: String, known: JSONValue?
    ) throws -> JSONObject {
        var stub = members
        stub.removeValue(forKey: "data")
        stub.removeValue(forKey: "follows")
        stub.removeValue(forKey: "encoding")
        stub.removeValue(forKey: "encoded_length")
        stub["stub"] = .bool(true)
        if let text = members["data"] {
            guard let base64 = text.stringValue, let data = Data(base64Encoded: base64) else {
                throw AttachmentCodec.failure(documentID, name, "'data' is not valid Base64")
            }
            if let length = members["length"], length.int64Value != Int64(data.count) {
                throw AttachmentCodec.failure(
                    documentID, name,
                    "'length' says \((try? JSONWriter.string(length)) ?? "?") but the data has \(data.count) bytes")
            }
            if let given = members["digest"]?.stringValue, AttachmentCodec.isCheckable(digest: given),
                !AttachmentCodec.matches(digest: given, data: data)
            {
                throw AttachmentCodec.failure(
                    documentID, name,
                    "the data does not match its digest '\(given.prefix(80))' (its own is \(AttachmentCodec.sha1Digest(of: data)))"
                )
            }
            stub["digest"] = .string(try save(data, contentType: members["content_type"]?.stringValue))
            stub["length"] = .int(Int64(data.count))
            return stub
        }
        if members["follows"]?.boolValue == true {
            throw AttachmentCodec.failure(
                documentID, name, "multipart bodies ('follows') are not supported; send 'data'")
        }
        if let digest = members["digest"]?.stringValue, digest.hasPrefix("sha1-"), isStored(digest: digest) {
            return stub
        }
        if let known, let digest = known["digest"]?.stringValue, isStored(digest: digest),
            members["length"] == nil || members["length"]?.int64Value == known["length"]?.int64Value
        {
            stub["digest"] = .string(digest)
            return stub
        }
        throw QuireError(
            .notFound,
            "document '\(documentID)', attachment '\(name)': a stub whose bytes are not stored here (missing_stub)")
    }

    private static func failure(_ id: String, _ name: String, _ problem: String) -> QuireError {
        QuireError(.invalidParameter, "document '\(id)', attachment '\(name)': \(problem)")
    }

    /// Whether `digest` is in a form whose match can be checked: `sha1-` followed by the
    /// Base64 of 20 bytes, or CouchDB's `md5-` followed by the Base64 of 16.
    package static func isCheckable(digest: String) -> Bool {
        for (prefix, size) in [("sha1-", 20), ("md5-", 16)] where digest.hasPrefix(prefix) {
            return Data(base64Encoded: String(digest.dropFirst(prefix.count)))?.count == size
        }
        return false
    }

    /// Whether `data` has `digest`: `sha1-` or CouchDB's `md5-`, both Base64.
    package static func matches(digest: String, data: Data) -> Bool {
        if digest.hasPrefix("sha1-") { return sha1Digest(of: data) == digest }
        if digest.hasPrefix("md5-") { return "md5-" + DigestText.base64(MD5.hash(data)) == digest }
        return false
    }

    /// `sha1-<base64>` of `data`, the digest the blob store names content by.
    package static func sha1Digest(of data: Data) -> String {
        Blob(contentType: "application/octet-stream", data: data).digest ?? ""
    }

    // MARK: The blob store

    /// The stored bytes of the blob `digest`, checked against it (and `length` when given).
    /// Throws notFound when they are not stored, invalidParameter for a digest that is not
    /// `sha1-`, corruptData when the stored bytes differ.
    package func storedData(digest: String, length: Int?) throws -> Data {
        var properties: [String: Any] = ["@type": "blob", "digest": digest]
        if let length { properties["length"] = length }
        guard let blob = try database.getBlob(properties: properties) else {
            throw QuireError(.notFound, "the bytes of blob \(digest) are not in this database")
        }
        return try blob.readContent()
    }

    /// Whether the bytes of the blob `digest` are stored.
    package func isStored(digest: String) -> Bool {
        guard let blob = try? database.getBlob(properties: ["@type": "blob", "digest": digest]) else { return false }
        return blob.digest == digest
    }

    /// Stores `data` (already checked against the digest it came with); returns its digest.
    package func save(_ data: Data, contentType: String?) throws -> String {
        let blob = Blob(contentType: contentType ?? "application/octet-stream", data: data)
        try database.saveBlob(blob: blob)
        return blob.digest ?? AttachmentCodec.sha1Digest(of: data)
    }

    // MARK: Finding blobs

    /// Every blob reference in `body`, by JSON pointer (RFC 6901); blob objects are not
    /// searched inside. Pointers are told apart by their bytes, as the keys they are made of.
    package static func blobReferences(in body: JSONObject) -> [JSONKey: JSONObject] {
        var found: [JSONKey: JSONObject] = [:]
        var pending: [(pointer: String, value: JSONValue)] = body.map { ("/" + escape($0.key), $0.value) }
        while let (pointer, value) = pending.popLast() {
            switch value {
            case .object(let members):
                if members["@type"] == .string("blob"), members["digest"]?.stringValue != nil {
                    found[JSONKey(pointer)] = members
                } else {
                    pending += members.map { (pointer + "/" + escape($0.key), $0.value) }
                }
            case .array(let elements):
                pending += elements.enumerated().map { (pointer + "/" + String($0.offset), $0.element) }
            default:
                break
            }
        }
        return found
    }

    /// RFC 6901's escapes, scalar by scalar: a `/` followed by a combining mark is still a `/`
    /// (a comparison by characters would not see it), and the rest of the key keeps its bytes.
    private static func escape(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        var escaped = String.UnicodeScalarView()
        for scalar in key.unicodeScalars {
            switch scalar {
            case "~": escaped.append(contentsOf: "~0".unicodeScalars)
            case "/": escaped.append(contentsOf: "~1".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
