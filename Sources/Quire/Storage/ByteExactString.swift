/// A string that equals another only when their UTF-8 bytes are the same, for dictionary keys
/// where Swift's own `String` equality (canonical equivalence) would join two different texts.
///
/// SQL that names the JSON key `"café"` spelt with U+00E9 and SQL that names it spelt `e` and
/// U+0301 are equal `String`s, yet they read two different keys (fleece, and SQLite's JSON
/// paths, compare keys as bytes); a statement cache keyed by `String` would run one for the
/// other.
struct ByteExactString: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ByteExactString, rhs: ByteExactString) -> Bool {
        lhs.text.utf8.elementsEqual(rhs.text.utf8)
    }

    func hash(into hasher: inout Hasher) {
        var text = self.text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
