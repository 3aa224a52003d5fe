import Foundation

/// Decodes a `Decodable` value from a document, a query result row or a value inside them.
///
/// A top-level ``DocumentID`` takes the document's ID and revision; a property that is
/// missing or holds another kind of value is ``QuireError/Code/decodingError`` naming the key
/// path, except a column missing from a query result row, which is
/// ``QuireError/Code/invalidQuery`` (the query did not select it), as Couchbase Lite has it.
struct DocumentValueDecoder: Decoder {
    /// Where the keyed values of the top level come from.
    enum Top {
        case document(Document)
        /// A row, and the column holding the rest of the properties (`SELECT meta().id AS id, *`).
        case result(QueryResult, data: DictionaryObject?)
    }

    let value: Any
    let top: Top?
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(value: Any, codingPath: [any CodingKey]) {
        self.value = value
        self.top = nil
        self.codingPath = codingPath
    }

    init(top: Top) {
        switch top {
        case .document(let document): value = document
        case .result(let result, _): value = result
        }
        self.top = top
        codingPath = []
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : "'" + codingPath.map(\.stringValue).joined(separator: ".") + "'"
    }

    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case let text as String: return "the string \"\(text.prefix(40))\""
        case is Bool: return "a boolean"
        case let number as Int: return "the number \(number)"
        case let number as Double: return "the number \(number)"
        case is DictionaryProtocol: return "an object"
        case is ArrayProtocol: return "an array"
        case is Blob: return "a blob"
        default: return "a \(type(of: value))"
        }
    }

    static func mismatch(_ expected: String, _ value: Any, at codingPath: [any CodingKey]) -> QuireError {
        QuireError(.decodingError, "expected \(expected) at \(path(codingPath)), found \(describe(value))")
    }

    /// Decodes `value` as `T`, with the types a document stores in its own way first.
    static func decode<T: Decodable>(_ type: T.Type, from value: Any, at codingPath: [any CodingKey]) throws -> T {
        if T.self == DocumentID.self {
            if value is NSNull { return DocumentID(wrappedValue: nil) as! T }
            guard let text = value as? String else { throw mismatch("a document ID string", value, at: codingPath) }
            return DocumentID(wrappedValue: text) as! T
        }
        if T.self == Blob.self {
            guard let blob = value as? Blob else { throw mismatch("a blob", value, at: codingPath) }
            return blob as! T
        }
        if T.self == Date.self {
            guard let text = value as? String else { throw mismatch("an ISO-8601 date string", value, at: codingPath) }
            guard let date = ISO8601.date(from: text) ?? ISO8601DateFormatter().date(from: text) else {
                throw QuireError(.decodingError, "\"\(text)\" at \(path(codingPath)) is not an ISO-8601 date")
            }
            return date as! T
        }
        if T.self == URL.self {
            guard let text = value as? String else { throw mismatch("a URL string", value, at: codingPath) }
            guard let url = URL(string: text) else {
                throw QuireError(.decodingError, "\"\(text)\" at \(path(codingPath)) is not a URL")
            }
            return url as! T
        }
        if T.self == Data.self {
            throw QuireError(.decodingError, "raw Data at \(path(codingPath)) is not stored in documents; use a Blob")
        }
        return try T(from: DocumentValueDecoder(value: value, codingPath: codingPath))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch top {
        case .document(let document):
            return KeyedDecodingContainer(
                KeyedContainer<Key>(
                    lookup: { document.value(forKey: $0) }, keys: document.keys, codingPath: [], document: document,
                    missingCode: .decodingError))
        case .result(let result, let data):
            return KeyedDecodingContainer(
                KeyedContainer<Key>(
                    lookup: { result.value(forKey: $0) ?? data?.value(forKey: $0) },
                    keys: result.keys + (data?.keys ?? []).filter { !result.keys.contains($0) }, codingPath: [],
                    document: nil, missingCode: .invalidQuery))
        case nil:
            guard let dictionary = value as? DictionaryProtocol else {
                throw Self.mismatch("an object", value, at: codingPath)
            }
            return KeyedDecodingContainer(
                KeyedContainer<Key>(
                    lookup: { dictionary.value(forKey: $0) }, keys: dictionary.keys, codingPath: codingPath,
                    document: nil, missingCode: .decodingError))
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .none = top, let array = value as? ArrayProtocol else {
            throw Self.mismatch("an array", value, at: codingPath)
        }
        return UnkeyedContainer(array: array, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(value: value, codingPath: codingPath)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let lookup: (String) -> Any?
        let keys: [String]
        var codingPath: [any CodingKey]
        /// The document being decoded at its top level: a ``DocumentID`` takes its ID.
        let document: Document?
        let missingCode: QuireError.Code

        var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { lookup(key.stringValue) != nil }

        private func present(_ key: any CodingKey) throws -> Any {
            guard let value = lookup(key.stringValue) else {
                let what = missingCode == .invalidQuery ? "the query result has no column" : "there is no property"
                throw QuireError(missingCode, "\(what) at \(DocumentValueDecoder.path(codingPath + [key]))")
            }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            guard let value = lookup(key.stringValue) else { return true }
            return value is NSNull
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if T.self == DocumentID.self {
                if let document {
                    return DocumentID(documentID: document.id, revisionID: document.revisionID) as! T
                }
                // Nested in a value, an ID left out reads as nil; a query must select it.
                if missingCode != .invalidQuery, lookup(key.stringValue) == nil {
                    return DocumentID(wrappedValue: nil) as! T
                }
            }
            return try DocumentValueDecoder.decode(type, from: try present(key), at: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try DocumentValueDecoder(value: try present(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try DocumentValueDecoder(value: try present(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            let key = SuperKey()
            return DocumentValueDecoder(value: try present(key), codingPath: codingPath + [key])
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            DocumentValueDecoder(value: try present(key), codingPath: codingPath + [key])
        }
    }

    private struct UnkeyedContainer: UnkeyedDecodingContainer {
        let array: ArrayProtocol
        var codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { array.count }
        var isAtEnd: Bool { currentIndex >= array.count }

        init(array: ArrayProtocol, codingPath: [any CodingKey]) {
            self.array = array
            self.codingPath = codingPath
        }

        private mutating func next() throws -> (Any, [any CodingKey]) {
            let path = codingPath + [IndexKey(index: currentIndex)]
            guard !isAtEnd, let value = array.value(at: currentIndex) else {
                throw QuireError(
                    .decodingError,
                    "the array at \(DocumentValueDecoder.path(codingPath)) has no element \(currentIndex)")
            }
            currentIndex += 1
            return (value, path)
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, array.value(at: currentIndex) is NSNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (value, path) = try next()
            return try DocumentValueDecoder.decode(type, from: value, at: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            let (value, path) = try next()
            return try DocumentValueDecoder(value: value, codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (value, path) = try next()
            return try DocumentValueDecoder(value: value, codingPath: path).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            let (value, path) = try next()
            return DocumentValueDecoder(value: value, codingPath: path)
        }
    }

    private struct SingleValueContainer: SingleValueDecodingContainer {
        let value: Any
        var codingPath: [any CodingKey]

        func decodeNil() -> Bool { value is NSNull }

        func decode(_ type: Bool.Type) throws -> Bool {
            guard let flag = value as? Bool else {
                throw DocumentValueDecoder.mismatch("a boolean", value, at: codingPath)
            }
            return flag
        }

        func decode(_ type: String.Type) throws -> String {
            guard let text = value as? String else {
                throw DocumentValueDecoder.mismatch("a string", value, at: codingPath)
            }
            return text
        }

        func decode(_ type: Double.Type) throws -> Double {
            switch value {
            case let number as Double: return number
            case let number as Int: return Double(number)
            case let number as Int64: return Double(number)
            default: throw DocumentValueDecoder.mismatch("a number", value, at: codingPath)
            }
        }

        func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

        private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
            let converted: I?
            switch value {
            case let number as Int: converted = I(exactly: number)
            case let number as Int64: converted = I(exactly: number)
            case let number as Double: converted = I(exactly: number)
            default: throw DocumentValueDecoder.mismatch("an integer", value, at: codingPath)
            }
            guard let converted else {
                throw QuireError(
                    .decodingError,
                    "\(DocumentValueDecoder.describe(value)) at \(DocumentValueDecoder.path(codingPath)) does not fit \(I.self)"
                )
            }
            return converted
        }

        func decode(_ type: Int.Type) throws -> Int { try integer(type) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            try DocumentValueDecoder.decode(type, from: value, at: codingPath)
        }
    }
}
