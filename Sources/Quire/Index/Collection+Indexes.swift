extension Collection {
    /// Creates the index `name` from `config` (a ``ValueIndexConfiguration``, a
    /// ``FullTextIndexConfiguration`` or an ``ArrayIndexConfiguration``) and indexes the
    /// documents already there. Creating an
    /// index that exists with the same configuration does nothing; with another
    /// configuration it replaces it. Definitions are kept in the database and survive reopening.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for an empty name or no expressions (an
    ///   array index's expressions may be nil, not empty);
    ///   ``QuireError/Code/invalidQuery`` for an expression that does not parse or cannot be
    ///   indexed, or an array index's path that is empty or not a path of keys; ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func createIndex(withName name: String, config: any IndexConfiguration) throws {
        guard !name.isEmpty else {
            throw QuireError(.invalidParameter, "an index name must not be empty")
        }
        let definition = try IndexCatalog.Definition(config)
        try writing { connection in
            if let existing = try IndexCatalog.definition(connection, collectionID: id, name: name) {
                if existing == definition { return }
                try IndexCatalog.drop(connection, collection: self, name: name, kind: existing.kind)
            }
            try IndexCatalog.create(connection, collection: self, name: name, definition: definition)
        }
    }

    /// Deletes the index `name`; deleting an index that does not exist does nothing. notOpen
    /// on a deleted collection, as every other operation there (Couchbase Lite's
    /// `testUseCollectionAPIOnDeletedCollection` deletes an index too).
    ///
    /// - Throws: ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func deleteIndex(forName name: String) throws {
        try writing { connection in
            try checkExists(connection)
            guard let existing = try IndexCatalog.definition(connection, collectionID: id, name: name) else { return }
            try IndexCatalog.drop(connection, collection: self, name: name, kind: existing.kind)
        }
    }

    /// The names of the collection's indexes, sorted.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func indexes() throws -> [String] {
        try checkExists()
        return try reading { connection in
            try IndexCatalog.names(connection, collectionID: id)
        }
    }

    /// The index `name`, or nil when there is none.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func index(withName name: String) throws -> QueryIndex? {
        try checkExists()
        return try reading { connection in
            guard let definition = try IndexCatalog.definition(connection, collectionID: id, name: name) else {
                return nil
            }
            return QueryIndex(
                name: name, collection: self, expressions: definition.expressions, whereClause: definition.whereClause,
                isFullText: definition.kind == .fullText, arrayPath: definition.kind == .array ? definition.path : nil)
        }
    }
}
