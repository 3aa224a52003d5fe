/// A value SQLite stores in a column or takes as a statement argument.
package enum SQLiteValue: Sendable, Hashable {
    /// SQL NULL.
    case null
    /// A 64-bit signed integer.
    case integer(Int64)
    /// A 64-bit IEEE float.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral,
    ExpressibleByFloatLiteral
{
    /// An integer literal becomes ``integer(_:)-enum.case``.
    package init(integerLiteral value: Int64) { self = .integer(value) }
    /// A string literal becomes ``text(_:)-enum.case``.
    package init(stringLiteral value: String) { self = .text(value) }
    /// `nil` becomes ``null``.
    package init(nilLiteral: ()) { self = .null }
    /// A float literal becomes ``real(_:)``.
    package init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue {
    /// Wraps an optional integer, NULL when nil.
    package static func integer(_ value: Int64?) -> SQLiteValue {
        value.map { .integer($0) } ?? .null
    }

    /// Wraps an optional string, NULL when nil.
    package static func text(_ value: String?) -> SQLiteValue {
        value.map { .text($0) } ?? .null
    }
}
