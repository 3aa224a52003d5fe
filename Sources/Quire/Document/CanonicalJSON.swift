import CQuireFTS
import Foundation

/// Recognises JSON text that is already canonical: the exact bytes ``JSONWriter`` (and the
/// tape's writer) would write for it. Such text is its own canonical form, so a document made
/// from it is stored and digested as it came, without a tape, a copy or a second writing.
///
/// Canonical means: one object at the top level; no whitespace outside strings; object keys
/// of ASCII without escapes, each greater than the one before in byte order (so sorted and
/// unique); strings whose escapes are the writer's own (`\"`, `\\`, `\b`, `\t`, `\n`, `\f`,
/// `\r`, and `\u00xx` in lower case for the other control characters); integers that fit
/// `Int64` (not `-0`); doubles in Swift's shortest form with a fraction or an exponent. Apps
/// send that text when they write JSON with sorted keys, and Quire hands it out from
/// `toJSON()`, the fixture loader and the replicator.
package enum CanonicalJSON {
    /// How many reals the first scan lists in a buffer on the stack; text with more is
    /// scanned again with room for all.
    private static let listedReals = 32

    /// Whether `text` is one valid JSON object in canonical form whose top-level keys do not
    /// start with `_` (those are checked as reserved keys on the full path). False for any
    /// other text, invalid text included: the full reader then reports what is wrong.
    ///
    /// One pass in C (`quire_canonical_object`) checks everything but the form of reals,
    /// which it lists: each must be the shortest text that reads back as its double, as
    /// Swift's `description` writes it.
    package static func isCanonicalObject(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress else { return false }
        let verdict = withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * listedReals) { reals in
            check(base, text.count, reals: reals)
        }
        if let verdict { return verdict }
        // Every real takes at least four bytes with its separator.
        let capacity = text.count / 4 + 1
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 2 * capacity) { reals in
            check(base, text.count, reals: reals) ?? false
        }
    }

    /// The verdict with room for `reals.count / 2` reals; nil when there were more.
    private static func check(
        _ base: UnsafePointer<UInt8>, _ count: Int, reals: UnsafeMutableBufferPointer<UInt32>
    ) -> Bool? {
        var realCount = 0
        let verdict = quire_canonical_object(
            base, count, Int32(JSONReader.maximumDepth), reals.baseAddress, reals.count / 2, &realCount)
        guard verdict >= 0 else { return nil }
        guard verdict == 1 else { return false }
        for index in 0..<realCount {
            let start = Int(reals[2 * index])
            let length = Int(reals[2 * index + 1])
            guard isShortestReal(UnsafeBufferPointer(start: base + start, count: length)) else { return false }
        }
        return true
    }

    /// Whether a JSON number with a fraction or an exponent is written as the writer writes its
    /// double (Swift's shortest form).
    private static func isShortestReal(_ number: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = number.baseAddress else { return false }
        var parser = JSONParser(base: base, count: number.count)
        guard case .double(let value) = try? parser.parseNumber(), parser.position == number.count else {
            return false
        }
        var written = value.description
        return written.withUTF8 { written in
            written.count == number.count && memcmp(written.baseAddress!, base, number.count) == 0
        }
    }
}
