/// A scope: a named group of collections. It exists while it has at least one collection;
/// a `Scope` object kept after its last collection was deleted returns empty results.
public final class Scope: Sendable, CustomStringConvertible {
    /// The scope's name.
    public let name: String
    /// The database the scope belongs to.
    public let database: Database

    init(name: String, database: Database) {
        self.name = name
        self.database = database
    }

    /// The scope's collections, sorted by name; empty once the scope has vanished.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed.
    public func collections() throws -> [Collection] {
        try database.collections(scope: name)
    }

    /// The collection `name` in this scope, or nil.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a name that breaks the naming rules;
    ///   ``QuireError/Code/notOpen`` when the database is closed.
    public func collection(name: String) throws -> Collection? {
        try database.collection(name: name, scope: self.name)
    }

    /// The scope's name, as ``name`` gives it.
    public var description: String { name }
}
