import Foundation

/// An object key that equals another only when their UTF-8 bytes are the same, and orders by
/// those bytes.
///
/// Swift's `String` compares and hashes by canonical equivalence, so `"caf\u{E9}"` (NFC) and
/// `"cafe\u{301}"` (NFD) are one `String` key; fleece compares dictionary keys as bytes
/// (`Dict::get` and the encoder's key sort compare slices), so a Couchbase Lite document keeps
/// both. Keys are never normalised.
package struct JSONKey: Hashable, Comparable, Sendable {
    /// The key's text, exactly as given.
    package let text: String

    /// The key spelt `text`, byte for byte.
    @inline(__always)
    package init(_ text: String) { self.text = text }

    package static func == (lhs: JSONKey, rhs: JSONKey) -> Bool {
        lhs.text.utf8.count == rhs.text.utf8.count && compare(lhs.text, rhs.text) == 0
    }

    package func hash(into hasher: inout Hasher) {
        // The same bytes hash the same whichever way they are reached.
        if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(text.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    /// Byte order of the UTF-8 text: the canonical order of keys in written JSON.
    package static func < (lhs: JSONKey, rhs: JSONKey) -> Bool {
        compare(lhs.text, rhs.text) < 0
    }

    /// Three-way comparison of two texts' UTF-8 bytes, in place where the strings are
    /// contiguous (native Swift strings, small ones included), without copying them.
    @inline(__always)
    package static func compare(_ lhs: String, _ rhs: String) -> Int {
        let order = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right -> Int in
                let shorter = min(left.count, right.count)
                if shorter > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
                    let order = memcmp(leftBase, rightBase, shorter)
                    if order != 0 { return Int(order) }
                }
                return left.count - right.count
            }
        }
        if let order, let order { return order }
        if lhs.utf8.elementsEqual(rhs.utf8) { return 0 }
        return lhs.utf8.lexicographicallyPrecedes(rhs.utf8) ? -1 : 1
    }
}

/// The members of a JSON object: a dictionary whose keys are told apart by their UTF-8 bytes
/// (see ``JSONKey``), so two keys that differ only in Unicode normalisation are two members,
/// as in fleece. Its API follows `Dictionary`'s; iterating gives `(key: String, value:)` pairs
/// in no particular order (``sortedMembers`` gives the canonical order).
// swift-format-ignore: AmbiguousTrailingClosureOverload
package struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    package typealias Element = (key: String, value: JSONValue)

    /// The members by exact key.
    package private(set) var storage: [JSONKey: JSONValue]

    /// An object with no members.
    package init() { storage = [:] }

    /// An object with no members and room for `minimumCapacity`.
    package init(minimumCapacity: Int) { storage = Dictionary(minimumCapacity: minimumCapacity) }

    /// The members of a Swift dictionary (whose `String` keys are already unique by canonical
    /// equivalence).
    package init(_ members: [String: JSONValue]) {
        storage = Dictionary(minimumCapacity: members.count)
        for (key, value) in members { storage[JSONKey(key)] = value }
    }

    /// The given pairs; when a key repeats byte for byte, the last value wins, as in parsed JSON.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = Dictionary(minimumCapacity: elements.count)
        for (key, value) in elements { storage[JSONKey(key)] = value }
    }

    /// The given pairs; when a key repeats byte for byte, the last value wins.
    package init(_ members: some Sequence<(String, JSONValue)>) {
        storage = [:]
        for (key, value) in members { storage[JSONKey(key)] = value }
    }

    /// The member named `key`, byte for byte.
    package subscript(key: String) -> JSONValue? {
        get { storage[JSONKey(key)] }
        set { storage[JSONKey(key)] = newValue }
    }

    /// The member named `key`, or `defaultValue` when there is none.
    package subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        get { storage[JSONKey(key)] ?? defaultValue() }
        set { storage[JSONKey(key)] = newValue }
    }

    /// The number of members.
    package var count: Int { storage.count }

    /// Whether there are no members.
    package var isEmpty: Bool { storage.isEmpty }

    /// The keys, in no particular order; `contains` compares bytes.
    package var keys: Keys { Keys(storage: storage.keys) }

    /// The values, in the order of ``keys``.
    package var values: Dictionary<JSONKey, JSONValue>.Values { storage.values }

    /// The members ordered by the UTF-8 bytes of their keys: the canonical order.
    package var sortedMembers: [Element] {
        var members: [Element] = []
        members.reserveCapacity(storage.count)
        for (key, value) in storage { members.append((key: key.text, value: value)) }
        members.sort { JSONKey.compare($0.key, $1.key) < 0 }
        return members
    }

    /// The members as a Swift dictionary, for protocol fields whose keys are ASCII: keys
    /// that differ only in Unicode normalisation become one there (one of their values is kept).
    package var dictionary: [String: JSONValue] {
        var result = [String: JSONValue](minimumCapacity: storage.count)
        for (key, value) in storage { result[key.text] = value }
        return result
    }

    /// Removes and returns the member named `key`.
    @discardableResult
    package mutating func removeValue(forKey key: String) -> JSONValue? {
        storage.removeValue(forKey: JSONKey(key))
    }

    /// Sets the member named `key`, returning the value it replaced.
    @discardableResult
    package mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        storage.updateValue(value, forKey: JSONKey(key))
    }

    /// Makes room for `minimumCapacity` members.
    package mutating func reserveCapacity(_ minimumCapacity: Int) { storage.reserveCapacity(minimumCapacity) }

    /// Adds `other`'s members, `combine` choosing when a key is in both.
    package mutating func merge(
        _ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows {
        try storage.merge(other.storage, uniquingKeysWith: combine)
    }

    /// The object with each value transformed, keys kept byte for byte.
    package func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var result = JSONObject()
        result.storage = try storage.mapValues(transform)
        return result
    }

    /// The values transformed, in a Swift dictionary (see ``dictionary`` on its keys). The
    /// overload mirrors `Dictionary.mapValues`, chosen by the result type the caller asks for.
    package func mapValues<T>(_ transform: (JSONValue) throws -> T) rethrows -> [String: T] {
        var result = [String: T](minimumCapacity: storage.count)
        for (key, value) in storage { result[key.text] = try transform(value) }
        return result
    }

    /// The members `isIncluded` keeps.
    package func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> JSONObject {
        var result = JSONObject()
        result.storage = try storage.filter { try isIncluded((key: $0.key.text, value: $0.value)) }
        return result
    }

    package func makeIterator() -> Iterator { Iterator(base: storage.makeIterator()) }

    package var underestimatedCount: Int { storage.count }

    /// Iterates over the members as `(key:, value:)` pairs.
    package struct Iterator: IteratorProtocol {
        var base: Dictionary<JSONKey, JSONValue>.Iterator

        package mutating func next() -> Element? {
            base.next().map { (key: $0.key.text, value: $0.value) }
        }
    }

    /// The keys of an object as text; `contains` compares bytes.
    package struct Keys: Swift.Collection {
        let storage: Dictionary<JSONKey, JSONValue>.Keys

        package typealias Index = Dictionary<JSONKey, JSONValue>.Keys.Index
        package var startIndex: Index { storage.startIndex }
        package var endIndex: Index { storage.endIndex }
        package func index(after index: Index) -> Index { storage.index(after: index) }
        package subscript(position: Index) -> String { storage[position].text }
        package var count: Int { storage.count }
        package var isEmpty: Bool { storage.isEmpty }

        /// Whether a key is `key` byte for byte.
        package func contains(_ key: String) -> Bool { storage.contains(JSONKey(key)) }
    }
}

extension JSONObject: CustomStringConvertible {
    package var description: String {
        "[" + sortedMembers.map { "\(String(reflecting: $0.key)): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
