import Foundation
import Quire

/// The rules every path inside a fixture archive follows, on the way in and on the way out.
///
/// A path is relative, uses `/` only, and has no `..` components; `.` and empty components
/// are dropped, so `a/./b` and `a//b` both normalise to `a/b` (and then count as duplicates).
package enum ArchivePath {
    /// Longest accepted name component, in UTF-8 bytes (the common file-system limit).
    package static let maximumComponentBytes = 255
    /// Longest accepted normalised path, in UTF-8 bytes.
    package static let maximumPathBytes = 1024

    /// Returns the normalised form of `raw`, or throws `code` with a message naming the entry
    /// and the rule it breaks.
    package static func normalize(_ raw: String, code: QuireError.Code) throws -> String {
        func refuse(_ rule: String) -> QuireError {
            QuireError(code, "archive entry '\(raw)' \(rule)")
        }
        if raw.isEmpty { throw refuse("has an empty name") }
        if raw.utf8.contains(where: { $0 < 0x20 || $0 == 0x7f }) { throw refuse("contains a control character") }
        if raw.contains("\\") { throw refuse("uses '\\' as a separator (only '/' is allowed)") }
        if raw.hasPrefix("/") { throw refuse("is an absolute path") }
        if let colon = raw.firstIndex(of: ":"), raw.distance(from: raw.startIndex, to: colon) == 1 {
            throw refuse("starts with a drive letter")
        }
        var components: [Substring] = []
        for component in raw.split(separator: "/", omittingEmptySubsequences: true) {
            if component == "." { continue }
            if component == ".." { throw refuse("escapes the destination ('..' component)") }
            if component.utf8.count > maximumComponentBytes {
                throw refuse("has a name component longer than \(maximumComponentBytes) bytes")
            }
            components.append(component)
        }
        if components.isEmpty { throw refuse("names no file (only '.' or '/' components)") }
        let normalized = components.joined(separator: "/")
        if normalized.utf8.count > maximumPathBytes { throw refuse("is longer than \(maximumPathBytes) bytes") }
        return normalized
    }

    /// Every proper ancestor folder of a normalised path, outermost first (`a/b/c` -> `a`, `a/b`).
    package static func ancestors(of path: String) -> [String] {
        let components = path.split(separator: "/")
        guard components.count > 1 else { return [] }
        return (1..<components.count).map { components[0..<$0].joined(separator: "/") }
    }

    /// A key under which names that one file system could confuse compare equal: case-folded
    /// and in Unicode canonical composition (macOS and Windows volumes fold both).
    package static func collisionKey(_ path: String) -> String {
        path.precomposedStringWithCanonicalMapping.lowercased()
    }
}
