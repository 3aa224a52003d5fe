import Foundation
import Quire

/// The field-by-field rules of ``FixtureManifest``, with messages that name the field.
struct FixtureManifestValidator {
    let code: QuireError.Code

    func validate(_ manifest: FixtureManifest) throws {
        func refuse(_ field: String, _ problem: String) -> QuireError {
            QuireError(code, "manifest \(field) \(problem)")
        }
        let readable = QuireFixtures.readableFormatVersions
        guard readable.contains(manifest.formatVersion) else {
            throw refuse(
                "formatVersion",
                "is \(manifest.formatVersion); this Quire reads versions \(readable.lowerBound) to \(readable.upperBound)"
            )
        }
        guard !manifest.quireVersion.isEmpty else { throw refuse("quireVersion", "is empty") }
        guard !manifest.name.isEmpty else { throw refuse("name", "is empty") }
        let databaseFolder = FixtureLayout.databaseFolder(manifest.name)
        guard !manifest.name.contains("/"), (try? ArchivePath.normalize(databaseFolder, code: code)) == databaseFolder
        else {
            throw refuse("name", "'\(manifest.name)' cannot name a database folder")
        }
        guard FixtureTimestamp(iso8601: manifest.buildTimestamp) != nil else {
            throw refuse("buildTimestamp", "'\(manifest.buildTimestamp)' is not YYYY-MM-DDThh:mm:ssZ")
        }

        var collectionNames: Set<String> = []
        for (index, collection) in manifest.collections.enumerated() {
            let field = "collections[\(index)]"
            guard CollectionName.isValidFullName(collection.name) else {
                throw refuse("\(field).name", "'\(collection.name)' is not a valid 'scope.collection' name")
            }
            guard collectionNames.insert(collection.name).inserted else {
                throw refuse("\(field).name", "'\(collection.name)' is listed twice")
            }
            guard collection.documentCount >= 0 else {
                throw refuse("\(field).documentCount", "is negative (\(collection.documentCount))")
            }
        }

        var indexNames: Set<String> = []
        for (position, index) in manifest.indexes.enumerated() {
            let field = "indexes[\(position)]"
            guard collectionNames.contains(index.collection) else {
                throw refuse("\(field).collection", "'\(index.collection)' is not among the manifest's collections")
            }
            guard !index.name.isEmpty else { throw refuse("\(field).name", "is empty") }
            guard indexNames.insert(index.collection + "\u{0}" + index.name).inserted else {
                throw refuse("\(field).name", "'\(index.name)' is listed twice for '\(index.collection)'")
            }
            guard !index.expressions.isEmpty, index.expressions.allSatisfy({ !$0.isEmpty }) else {
                throw refuse("\(field).expressions", "must list at least one non-empty expression")
            }
            if index.kind != .fullText {
                if index.ignoreAccents != nil {
                    throw refuse("\(field).ignoreAccents", "is only for full-text indexes")
                }
                if index.language != nil { throw refuse("\(field).language", "is only for full-text indexes") }
            }
            if let language = index.language, language.isEmpty { throw refuse("\(field).language", "is empty") }
        }

        var blobs: Set<String> = []
        for (position, digest) in manifest.blobs.enumerated() {
            guard DatasetBlobName.isValidDigest(digest) else {
                throw refuse("blobs[\(position)]", "'\(digest)' is not a 'sha1-<base64>' digest")
            }
            guard blobs.insert(digest).inserted else {
                throw refuse("blobs[\(position)]", "'\(digest)' is listed twice")
            }
        }

        var paths: Set<String> = []
        for (position, entry) in manifest.entries.enumerated() {
            let field = "entries[\(position)]"
            let normalized: String
            do {
                normalized = try ArchivePath.normalize(entry.path, code: code)
            } catch let error as QuireError {
                throw refuse("\(field).path", "is unsafe: \(error.message)")
            }
            guard normalized == entry.path else {
                throw refuse("\(field).path", "'\(entry.path)' is not in normal form ('\(normalized)')")
            }
            guard entry.path != FixtureManifest.fileName else {
                throw refuse("\(field).path", "lists the manifest itself")
            }
            guard entry.path.hasPrefix(databaseFolder + "/") else {
                throw refuse("\(field).path", "'\(entry.path)' is outside the database folder '\(databaseFolder)'")
            }
            guard paths.insert(entry.path).inserted else {
                throw refuse("\(field).path", "'\(entry.path)' is listed twice")
            }
            guard entry.sha256.utf8.count == 64, entry.sha256.utf8.allSatisfy({ Self.isLowerHex($0) }) else {
                throw refuse("\(field).sha256", "'\(entry.sha256)' is not 64 lowercase hex digits")
            }
            guard entry.size >= 0 else { throw refuse("\(field).size", "is negative (\(entry.size))") }
        }

        for (position, checkpoint) in (manifest.checkpoints ?? []).enumerated() {
            let field = "checkpoints[\(position)]"
            guard collectionNames.contains(checkpoint.collection) else {
                throw refuse(
                    "\(field).collection", "'\(checkpoint.collection)' is not among the manifest's collections")
            }
            guard !checkpoint.remoteURL.isEmpty else { throw refuse("\(field).remoteURL", "is empty") }
            guard !checkpoint.checkpointID.isEmpty else { throw refuse("\(field).checkpointID", "is empty") }
        }
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    /// A decoding failure as a `corruptData` error naming the field.
    static func describe(_ error: DecodingError) -> QuireError {
        func path(_ context: DecodingError.Context, adding key: CodingKey? = nil) -> String {
            var text = ""
            for component in context.codingPath + (key.map { [$0] } ?? []) {
                if let index = component.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? component.stringValue : ".\(component.stringValue)"
                }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return QuireError(.corruptData, "manifest is missing \(path(context, adding: key))")
        case .typeMismatch(let type, let context):
            return QuireError(.corruptData, "manifest \(path(context)) is not \(Self.typeName(type))")
        case .valueNotFound(let type, let context):
            return QuireError(.corruptData, "manifest \(path(context)) is null; expected \(Self.typeName(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return QuireError(.corruptData, "manifest is not valid JSON: \(context.debugDescription)")
            }
            return QuireError(.corruptData, "manifest \(path(context)) is invalid: \(context.debugDescription)")
        @unknown default:
            return QuireError(.corruptData, "manifest cannot be read: \(error)")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int64.Type: return "an integer"
        case is [Any].Type: return "an array"
        default: return "of type \(type)"
        }
    }
}
