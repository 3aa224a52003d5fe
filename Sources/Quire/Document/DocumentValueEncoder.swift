import Foundation

/// Encodes an `Encodable` value into what a document body holds: `[String: Any]` and `[Any]`
/// containers, ``JSONValue`` scalars, ``Blob``s, dates as ISO-8601 text.
///
/// The top-level ``DocumentID`` is left out (the document's ID is not part of its body); a
/// nested one is an optional string. Raw `Data`, non-finite numbers and integers beyond
/// `Int64` have no document form: ``QuireError/Code/encodingError`` naming the key path.
struct DocumentValueEncoder: Encoder {
    /// One value being built; a container fills in `members` or `elements`.
    final class Node {
        var scalar: Any?
        var members: [String: Node]?
        var elements: [Node]?

        var value: Any {
            if let members { return members.mapValues(\.value) as [String: Any] }
            if let elements { return elements.map(\.value) as [Any] }
            return scalar ?? JSONValue.null
        }
    }

    let node: Node
    var codingPath: [any CodingKey]
    /// Whether this encodes the document itself (its ``DocumentID`` is left out).
    let isDocument: Bool
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The body of the document `value` stands for.
    ///
    /// - Throws: ``QuireError/Code/encodingError`` for a value with no document form, or one
    ///   that does not encode as keyed (a JSON object).
    static func body<T: Encodable>(of value: T) throws -> [String: Any] {
        let root = Node()
        do {
            try value.encode(to: DocumentValueEncoder(node: root, codingPath: [], isDocument: true))
        } catch let error as QuireError {
            throw error
        } catch {
            throw QuireError(.encodingError, "cannot encode \(T.self) as a document: \(error)")
        }
        guard let members = root.members else {
            throw QuireError(
                .encodingError, "\(T.self) does not encode as keyed values (a JSON object), so it cannot be a document")
        }
        return members.mapValues(\.value)
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : "'" + codingPath.map(\.stringValue).joined(separator: ".") + "'"
    }

    /// Encodes `value` into `node`, with the types a document stores in its own way first.
    static func encode<T: Encodable>(_ value: T, into node: Node, at codingPath: [any CodingKey]) throws {
        switch value {
        case let blob as Blob: node.scalar = blob
        case let date as Date: node.scalar = JSONValue.string(ISO8601.string(from: date))
        case let url as URL: node.scalar = JSONValue.string(url.absoluteString)
        case is Data:
            throw QuireError(
                .encodingError, "raw Data at \(path(codingPath)) has no document form; store it as a Blob")
        default: try value.encode(to: DocumentValueEncoder(node: node, codingPath: codingPath, isDocument: false))
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.members == nil { node.members = [:] }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath, isDocument: isDocument))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.elements == nil { node.elements = [] }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath)
    }

    private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        var codingPath: [any CodingKey]
        let isDocument: Bool

        private func child(_ key: any CodingKey) -> Node {
            let child = Node()
            node.members?[key.stringValue] = child
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { child(key).scalar = JSONValue.null }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if isDocument, value is DocumentID { return }
            try DocumentValueEncoder.encode(value, into: child(key), at: codingPath + [key])
        }

        // A nil optional is stored as null, as Couchbase Lite stores it, so the key is
        // present; Swift's defaults leave it out, and each scalar type has its own default.
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            DocumentValueEncoder(node: child(key), codingPath: codingPath + [key], isDocument: false)
                .container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            DocumentValueEncoder(node: child(key), codingPath: codingPath + [key], isDocument: false).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let key = SuperKey()
            return DocumentValueEncoder(node: child(key), codingPath: codingPath + [key], isDocument: false)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            DocumentValueEncoder(node: child(key), codingPath: codingPath + [key], isDocument: false)
        }
    }

    private struct UnkeyedContainer: UnkeyedEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]
        var count: Int { node.elements?.count ?? 0 }

        private func next() -> (Node, [any CodingKey]) {
            let child = Node()
            let path = codingPath + [IndexKey(index: count)]
            node.elements?.append(child)
            return (child, path)
        }

        mutating func encodeNil() throws { next().0.scalar = JSONValue.null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let (child, path) = next()
            try DocumentValueEncoder.encode(value, into: child, at: path)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            let (child, path) = next()
            return DocumentValueEncoder(node: child, codingPath: path, isDocument: false).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (child, path) = next()
            return DocumentValueEncoder(node: child, codingPath: path, isDocument: false).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let (child, path) = next()
            return DocumentValueEncoder(node: child, codingPath: path, isDocument: false)
        }
    }

    private struct SingleValueContainer: SingleValueEncodingContainer {
        let node: Node
        var codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.scalar = JSONValue.null }
        mutating func encode(_ value: Bool) throws { node.scalar = JSONValue.bool(value) }
        mutating func encode(_ value: String) throws { node.scalar = JSONValue.string(value) }
        mutating func encode(_ value: Double) throws {
            guard value.isFinite else {
                throw QuireError(
                    .encodingError, "\(value) at \(DocumentValueEncoder.path(codingPath)) is not a finite number")
            }
            node.scalar = JSONValue.double(value)
        }
        mutating func encode(_ value: Float) throws { try encode(Double(value)) }
        mutating func encode(_ value: Int) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: Int8) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: Int16) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: Int32) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: Int64) throws { node.scalar = JSONValue.int(value) }
        mutating func encode(_ value: UInt) throws { try encodeUnsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: UInt16) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: UInt32) throws { node.scalar = JSONValue.int(Int64(value)) }
        mutating func encode(_ value: UInt64) throws { try encodeUnsigned(value) }

        private func encodeUnsigned(_ value: UInt64) throws {
            guard let signed = Int64(exactly: value) else {
                throw QuireError(
                    .encodingError,
                    "\(value) at \(DocumentValueEncoder.path(codingPath)) is beyond the 64-bit signed integers a document stores"
                )
            }
            node.scalar = JSONValue.int(signed)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try DocumentValueEncoder.encode(value, into: node, at: codingPath)
        }
    }
}

/// The key a `super` encoder or decoder uses, as Swift's own coders name it.
struct SuperKey: CodingKey {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}

/// The position of an element in an array, as a coding path shows it.
struct IndexKey: CodingKey {
    let index: Int
    var stringValue: String { "\(index)" }
    var intValue: Int? { index }
    init(index: Int) { self.index = index }
    init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.index = index
    }
    init?(intValue: Int) { index = intValue }
}
