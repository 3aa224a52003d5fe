import Foundation
import Quire

/// Blobs on the wire: a pushed revision carries each blob it refers to as an attachment named
/// `blob_<JSON pointer>` with inline base64 `data` (Sync Gateway's convention); a pulled
/// revision's attachments are checked against their digests and lengths and stored in the
/// blob store before the revision is inserted, so no stored document refers to missing
/// content.
enum BlobTransfer {
    // MARK: Pull

    /// Checks and stores the blobs of `revision`, and returns the body to store: blob
    /// attachments dropped (their references in the body stand for them), other attachments
    /// kept as stubs with a `sha1-` digest. Throws without storing any blob when anything is
    /// wrong with them.
    static func receive(_ revision: RemoteRevision, into database: Database, origin: String) throws -> [String: JSONValue] {
        guard !revision.isDeleted else { return [:] }
        let context = "revision \(revision.revisionID) of document '\(revision.documentID)' from \(origin)"
        var contents: [String: Data] = [:]
        var stubs: [String: JSONValue] = [:]
        for attachment in revision.attachments {
            if let data = attachment.data {
                let digest = sha1Digest(of: data)
                if let claimed = attachment.digest, claimed.hasPrefix("sha1-"), claimed != digest {
                    throw QuireError(
                        .remoteError,
                        "\(context): attachment '\(attachment.name)' claims digest \(claimed) but its data has \(digest)")
                }
                contents[digest] = data
                if !attachment.name.hasPrefix("blob_") {
                    stubs[attachment.name] = stub(
                        contentType: attachment.contentType, digest: digest, length: Int64(data.count),
                        revpos: attachment.revpos)
                }
            } else {
                guard let digest = attachment.digest, digest.hasPrefix("sha1-"), try isStored(digest, in: database) else {
                    throw QuireError(
                        .remoteError,
                        "\(context): attachment '\(attachment.name)' has no data and its content is not stored here")
                }
                if !attachment.name.hasPrefix("blob_") {
                    stubs[attachment.name] = stub(
                        contentType: attachment.contentType, digest: digest, length: attachment.length,
                        revpos: attachment.revpos)
                }
            }
        }
        for reference in BlobReference.all(in: revision.body) {
            if let data = contents[reference.digest] {
                if let length = reference.length, length != Int64(data.count) {
                    throw QuireError(
                        .remoteError,
                        "\(context): blob at \(reference.pointer) says length \(length) but its content has \(data.count) bytes")
                }
            } else if try !isStored(reference.digest, in: database) {
                throw QuireError(
                    .remoteError, "\(context): blob at \(reference.pointer) (\(reference.digest)) came without its content")
            }
        }
        for (_, data) in contents.sorted(by: { $0.key < $1.key }) {
            try database.saveBlob(blob: Blob(contentType: "application/octet-stream", data: data))
        }
        var body = revision.body
        if stubs.isEmpty {
            body.removeValue(forKey: "_attachments")
        } else {
            body["_attachments"] = .object(stubs)
        }
        return body
    }

    static func sha1Digest(of data: Data) -> String {
        "sha1-" + Digest.base64(SHA1.hash(data: data))
    }

    private static func isStored(_ digest: String, in database: Database) throws -> Bool {
        try database.getBlob(properties: ["@type": "blob", "digest": digest]) != nil
    }

    private static func stub(contentType: String?, digest: String, length: Int64?, revpos: Int64?) -> JSONValue {
        var members: [String: JSONValue] = ["digest": .string(digest), "stub": true]
        if let contentType { members["content_type"] = .string(contentType) }
        if let length { members["length"] = .int(length) }
        if let revpos { members["revpos"] = .int(revpos) }
        return .object(members)
    }

    // MARK: Push

    /// The `_attachments` member to send with `body`: every blob reference and every stored
    /// legacy attachment, with its content inline.
    static func attachments(for body: [String: JSONValue], generation: Int, database: Database, documentID: String)
        throws -> [String: JSONValue]
    {
        var result: [String: JSONValue] = [:]
        for reference in BlobReference.all(in: body) {
            let data = try content(digest: reference.digest, length: reference.length, database: database, documentID: documentID)
            var members: [String: JSONValue] = [
                "digest": .string(reference.digest), "length": .int(Int64(data.count)),
                "revpos": .int(Int64(generation)), "data": .string(data.base64EncodedString()),
            ]
            if let contentType = reference.contentType { members["content_type"] = .string(contentType) }
            result[reference.attachmentName] = .object(members)
        }
        for (name, value) in body["_attachments"]?.objectValue ?? [:] {
            guard var members = value.objectValue else { continue }
            if members["data"] == nil, let digest = members["digest"]?.stringValue, digest.hasPrefix("sha1-") {
                let data = try content(
                    digest: digest, length: members["length"]?.int64Value, database: database, documentID: documentID)
                members["data"] = .string(data.base64EncodedString())
                members.removeValue(forKey: "stub")
            }
            result[name] = .object(members)
        }
        return result
    }

    private static func content(digest: String, length: Int64?, database: Database, documentID: String) throws -> Data {
        guard let length else {
            throw QuireError(.corruptRevisionData, "blob \(digest) of document '\(documentID)' has no length")
        }
        guard let blob = try database.getBlob(properties: ["@type": "blob", "digest": digest, "length": length]) else {
            throw QuireError(.notFound, "blob \(digest) of document '\(documentID)' is missing from the blob store")
        }
        return try blob.readContent()
    }
}
