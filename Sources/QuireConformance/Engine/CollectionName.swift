/// A collection's scope and name. Spec files write it as `scope.collection`, or as a bare
/// `collection` in the `_default` scope; no name at all means `_default._default`.
public struct CollectionName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The default scope's and the default collection's name.
    public static let defaultName = "_default"
    /// `_default._default`.
    public static let `default` = CollectionName(defaultName, scope: defaultName)

    /// The collection's name.
    public var name: String
    /// The scope's name.
    public var scope: String

    /// Makes a collection name.
    public init(_ name: String, scope: String = CollectionName.defaultName) {
        self.name = name
        self.scope = scope
    }

    /// Reads `scope.collection` (split at the first dot) or a bare collection name.
    public init(fullName: String) {
        if let dot = fullName.firstIndex(of: ".") {
            self.init(String(fullName[fullName.index(after: dot)...]), scope: String(fullName[..<dot]))
        } else {
            self.init(fullName)
        }
    }

    /// `scope.collection`, as Couchbase Lite prints it.
    public var fullName: String { "\(scope).\(name)" }

    /// The full name.
    public var description: String { fullName }

    /// Orders by scope, then name.
    public static func < (lhs: CollectionName, rhs: CollectionName) -> Bool {
        (lhs.scope, lhs.name) < (rhs.scope, rhs.name)
    }
}

/// A document by collection and ID.
public struct DocumentReference: Sendable, Hashable, CustomStringConvertible {
    /// The collection.
    public var collection: CollectionName
    /// The document ID.
    public var id: String

    /// Makes a reference.
    public init(_ id: String, in collection: CollectionName = .default) {
        self.id = id
        self.collection = collection
    }

    /// `'id' in scope.collection`.
    public var description: String { "'\(id)' in \(collection)" }
}
