import Foundation
import Quire
import QuireFixtures

/// Reads documents from a JSON Lines file: one JSON object per line, the document ID in a
/// named field. Lines stream one at a time; errors name the file and the line.
///
/// Blank lines are skipped. Every other line must be a JSON object whose ID field holds a
/// non-empty string (an integer is taken in decimal), unique within the file. `_id` is never
/// part of a body (Quire rejects it there): when it is the ID field it is removed, and when
/// another field is the ID field a line that also has `_id` is refused rather than guessed at.
package struct JSONLinesDocumentReader {
    /// The field test-kit datasets keep IDs in.
    static let defaultIDField = "_id"

    /// The `.jsonl` file.
    let url: URL
    /// The top-level field holding each document's ID.
    var idField: String = defaultIDField
    /// How errors name a line: `line 3 of 'hotel.jsonl'` unless given.
    package var lineName: ((Int) -> String)?
    /// Whether an ID may appear once only (a dataset); `quire db import` saves a repeated ID as
    /// the document's next revision.
    package var requiresUniqueIDs = true
    /// Whether blob references in bodies are collected to be stored from the dataset's
    /// `Attachments/`; a bare `.jsonl` file brings no blobs, so its references stay as they are.
    package var readsBlobReferences = true
    /// Whether an integer ID is taken in decimal; `quire db import` wants the string it saves.
    package var acceptsIntegerIDs = true

    /// A reader of the documents of the file at `url`, IDs in `_id`.
    package init(url: URL) {
        self.url = url
    }

    init(url: URL, idField: String) {
        self.url = url
        self.idField = idField
    }

    /// Calls `body` with each document, in file order, and the line's bytes as read.
    package func forEachDocument(_ body: (DatasetDocument, ArraySlice<UInt8>) throws -> Void) throws {
        let reader = try JSONLinesReader(path: url.path)
        var firstLineByID: [String: Int] = [:]
        while let line = try reader.nextLine() {
            let number = reader.lineNumber
            func refuse(_ problem: String) -> QuireError {
                QuireError(
                    .corruptData, "\(lineName?(number) ?? "line \(number) of '\(url.lastPathComponent)'") \(problem)")
            }
            func noteID(_ id: String) throws {
                guard requiresUniqueIDs else { return }
                if let first = firstLineByID[id] { throw refuse("repeats \(idField) '\(id)' (first on line \(first))") }
                firstLineByID[id] = number
            }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            // Most lines are `_id` and a canonical body: taken as they are, unparsed.
            if idField == Self.defaultIDField,
                let canonical = CanonicalDatasetLine(line, readsBlobReferences: readsBlobReferences)
            {
                try noteID(canonical.id)
                try body(DatasetDocument(id: canonical.id, line: number, canonicalJSON: canonical.body), line)
                continue
            }
            let parsed: JSONValue
            do {
                parsed = try line.withUnsafeBytes { try JSONReader.parse($0) }
            } catch let error as QuireError {
                throw refuse("is not valid JSON: \(error.message)")
            }
            guard case .object(var members) = parsed else { throw refuse("is not a JSON object") }
            let id: String
            switch idField == Self.defaultIDField ? members.removeValue(forKey: idField) : members[idField] {
            case .string(let text)? where !text.isEmpty: id = text
            case .int(let number)? where acceptsIntegerIDs: id = String(number)
            default: throw refuse("has no \"\(idField)\" string")
            }
            if idField != Self.defaultIDField, members[Self.defaultIDField] != nil {
                throw refuse("has \"\(Self.defaultIDField)\" but IDs are taken from \"\(idField)\"")
            }
            try noteID(id)
            var references: [DatasetBlobReference] = []
            do {
                if readsBlobReferences { references = try DatasetBlobReference.all(in: .object(members)) }
            } catch let error as QuireError {
                throw refuse("document '\(id)': \(error.message)")
            }
            try body(DatasetDocument(id: id, line: number, body: members, blobReferences: references), line)
        }
    }

    /// Counts the lines that are not blank, without parsing them (for progress totals).
    func countDocumentLines() throws -> Int {
        let reader = try JSONLinesReader(path: url.path)
        var count = 0
        while let line = try reader.nextLine() {
            if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { count += 1 }
        }
        return count
    }
}
