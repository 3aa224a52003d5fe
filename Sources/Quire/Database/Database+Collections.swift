extension Database {
    /// The catalog row of one collection.
    struct CatalogEntry {
        let id: Int64
        let scope: String
        let name: String
    }

    /// The default scope, which always exists.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed.
    public func defaultScope() throws -> Scope {
        try checkOpen()
        return Scope(name: Database.defaultScopeName, database: self)
    }

    /// Every scope that has at least one collection: the default scope first, then by name.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed.
    public func scopes() throws -> [Scope] {
        let names = try read { connection in
            try connection.query("SELECT DISTINCT scope FROM quire_collections ORDER BY scope") { $0.text(at: 0) ?? "" }
        }
        let ordered =
            names.filter { $0 == Database.defaultScopeName } + names.filter { $0 != Database.defaultScopeName }
        return ordered.map { Scope(name: $0, database: self) }
    }

    /// The scope `name`, or nil when it has no collections.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a name that breaks the naming rules;
    ///   ``QuireError/Code/notOpen`` when the database is closed.
    public func scope(name: String) throws -> Scope? {
        try checkOpen()
        if name != Database.defaultScopeName { try CollectionName.validate(name, kind: "scope") }
        let found = try read { connection in
            try connection.scalarInt("SELECT 1 FROM quire_collections WHERE scope = ? LIMIT 1", [.text(name)])
        }
        return found == nil ? nil : Scope(name: name, database: self)
    }

    /// The default collection, which always exists.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed;
    ///   ``QuireError/Code/corruptData`` when the file has lost its default collection.
    public func defaultCollection() throws -> Collection {
        guard let collection = try collection(name: Database.defaultCollectionName, scope: nil) else {
            throw QuireError(.corruptData, "database '\(name)' has no default collection")
        }
        return collection
    }

    /// The collections of a scope (the default scope when nil), sorted by name.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a scope name that breaks the naming
    ///   rules; ``QuireError/Code/notOpen`` when the database is closed.
    public func collections(scope: String? = nil) throws -> [Collection] {
        let scopeName = scope ?? Database.defaultScopeName
        if scopeName != Database.defaultScopeName { try CollectionName.validate(scopeName, kind: "scope") }
        let entries = try read { connection in
            try connection.query(
                "SELECT id, scope, name FROM quire_collections WHERE scope = ? ORDER BY name", [.text(scopeName)]
            ) { CatalogEntry(id: $0.int64(at: 0), scope: $0.text(at: 1) ?? "", name: $0.text(at: 2) ?? "") }
        }
        return entries.map(makeCollection)
    }

    /// The collection `name` in `scope` (the default scope when nil), or nil when absent.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a name that breaks the naming rules;
    ///   ``QuireError/Code/notOpen`` when the database is closed.
    public func collection(name: String, scope: String? = nil) throws -> Collection? {
        let (scopeName, collectionName) = try Database.validatedNames(name: name, scope: scope)
        let entry = try read { connection in
            try Database.catalogEntry(connection, scope: scopeName, name: collectionName)
        }
        return entry.map(makeCollection)
    }

    /// Creates the collection `name` in `scope` (the default scope when nil), creating the
    /// scope implicitly; returns the existing collection when there is one.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a name that breaks the naming rules (1 to
    ///   251 characters of `A-Z a-z 0-9 _ - %`, not starting with `_` or `%`);
    ///   ``QuireError/Code/notOpen`` when the database is closed; SQLite failures in the `.sqlite`
    ///   domain.
    @discardableResult
    public func createCollection(name: String, scope: String? = nil) throws -> Collection {
        let (scopeName, collectionName) = try Database.validatedNames(name: name, scope: scope)
        let entry = try write { connection in
            if let existing = try Database.catalogEntry(connection, scope: scopeName, name: collectionName) {
                return existing
            }
            let id = try StoreSchema.createCollectionTable(connection, scope: scopeName, name: collectionName)
            return CatalogEntry(id: id, scope: scopeName, name: collectionName)
        }
        return makeCollection(entry)
    }

    /// Deletes the collection `name` in `scope` and all its documents; the default collection
    /// cannot be deleted (invalidParameter). Deleting an absent collection does nothing.
    /// The scope vanishes with its last collection.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for the default collection or a name that
    ///   breaks the naming rules; ``QuireError/Code/notOpen`` when the database is closed; SQLite
    ///   failures in the `.sqlite` domain.
    public func deleteCollection(name: String, scope: String? = nil) throws {
        let (scopeName, collectionName) = try Database.validatedNames(name: name, scope: scope)
        if scopeName == Database.defaultScopeName && collectionName == Database.defaultCollectionName {
            throw QuireError(.invalidParameter, "the default collection _default._default cannot be deleted")
        }
        try write { connection in
            guard let entry = try Database.catalogEntry(connection, scope: scopeName, name: collectionName) else {
                return
            }
            try connection.run("DELETE FROM quire_collections WHERE id = ?", [.integer(entry.id)])
            try connection.run("DELETE FROM quire_indexes WHERE collection_id = ?", [.integer(entry.id)])
            try connection.run("DELETE FROM quire_leaves WHERE collection_id = ?", [.integer(entry.id)])
            try connection.run("DELETE FROM quire_local_docs WHERE collection_id = ?", [.integer(entry.id)])
            try Database.dropCollectionObjects(connection, id: entry.id)
        }
    }

    /// Drops a collection's table (its value indexes and full-text triggers go with it) and
    /// its full-text tables.
    static func dropCollectionObjects(_ connection: Connection, id: Int64) throws {
        try connection.execute("DROP TABLE IF EXISTS \(StoreSchema.tableName(id))")
        try IndexCatalog.dropIndexTables(connection, collectionID: id)
    }

    static func catalogEntry(_ connection: Connection, scope: String, name: String) throws -> CatalogEntry? {
        try connection.query(
            "SELECT id FROM quire_collections WHERE scope = ? AND name = ?", [.text(scope), .text(name)]
        ) { CatalogEntry(id: $0.int64(at: 0), scope: scope, name: name) }.first
    }

    static func validatedNames(name: String, scope: String?) throws -> (scope: String, name: String) {
        let scopeName = scope ?? defaultScopeName
        if scopeName != defaultScopeName { try CollectionName.validate(scopeName, kind: "scope") }
        if !(scopeName == defaultScopeName && name == defaultCollectionName) {
            try CollectionName.validate(name, kind: "collection")
        }
        return (scopeName, name)
    }

    private func makeCollection(_ entry: CatalogEntry) -> Collection {
        // Databases opened by path start expiring documents once collections are used.
        core.startHousekeeping(clock: config.clock)
        return Collection(id: entry.id, name: entry.name, scope: Scope(name: entry.scope, database: self))
    }
}
