import Quire

/// Compares a document's actual body with the expected one, as `/verifyDocuments` does: the
/// first key path where they differ, and whether the difference is a blob whose content the
/// database lacks.
enum DocumentComparison {
    /// Where two bodies first differ.
    struct Difference: Sendable, Equatable {
        /// The key path (`address.city`, `phones[1]`).
        let path: String
        /// The actual value there is a blob equal to the expected one whose content is missing.
        let missingBlob: Bool
    }

    /// The first difference between `actual` and `expected` (keys in sorted order), or nil.
    /// `blobExists` tells whether the database holds a blob's content.
    static func firstDifference(
        actual: [String: JSONValue], expected: [String: JSONValue], blobExists: ([String: JSONValue]) -> Bool
    ) -> Difference? {
        difference(.object(actual), .object(expected), path: "", blobExists: blobExists)
    }

    private static func difference(
        _ actual: JSONValue, _ expected: JSONValue, path: String, blobExists: ([String: JSONValue]) -> Bool
    ) -> Difference? {
        switch (actual, expected) {
        case (.object(let left), .object(let right)):
            if isBlob(right.dictionary), isBlob(left.dictionary) {
                guard left["digest"] == right["digest"] else { return Difference(path: path, missingBlob: false) }
                return blobExists(left.dictionary) ? nil : Difference(path: path, missingBlob: true)
            }
            for key in Set(left.keys).union(right.keys).sorted() {
                let child = path.isEmpty ? escaped(key) : "\(path).\(escaped(key))"
                guard let a = left[key], let e = right[key] else { return Difference(path: child, missingBlob: false) }
                if let found = difference(a, e, path: child, blobExists: blobExists) { return found }
            }
            return nil
        case (.array(let left), .array(let right)):
            for index in 0..<max(left.count, right.count) {
                let child = "\(path)[\(index)]"
                guard index < left.count, index < right.count else {
                    return Difference(path: child, missingBlob: false)
                }
                if let found = difference(left[index], right[index], path: child, blobExists: blobExists) {
                    return found
                }
            }
            return nil
        case (.int(let left), .double(let right)), (.double(let right), .int(let left)):
            return Double(left) == right ? nil : Difference(path: path, missingBlob: false)
        default:
            return actual == expected ? nil : Difference(path: path, missingBlob: false)
        }
    }

    static func isBlob(_ members: [String: JSONValue]) -> Bool {
        members["@type"] == .string("blob") && members["digest"]?.stringValue != nil
    }

    /// A property name as a key path writes it: `.`, `[`, `]` and `\` escaped.
    static func escaped(_ key: String) -> String {
        var text = ""
        for character in key {
            if ".[]\\".contains(character) { text.append("\\") }
            text.append(character)
        }
        return text
    }
}
