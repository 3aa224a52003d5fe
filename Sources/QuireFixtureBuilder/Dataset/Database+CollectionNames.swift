import Quire

package extension CollectionName {
    /// A collection named by a person (a command's argument, a dataset's `index.json` entry):
    /// `scope.collection`, a bare `collection` of the default scope, and `_default` or nothing
    /// for the default collection.
    static func named(_ text: String?) -> CollectionName {
        guard let text, !text.isEmpty, text != defaultName else { return .default }
        return CollectionName(fullName: text)
    }
}

package extension Database {
    /// The collection `name`, which must exist.
    ///
    /// - Throws: `QuireError.notFound` naming the collections there are.
    func collection(_ name: CollectionName) throws -> Quire.Collection {
        if let found = try collection(name: name.name, scope: name.scope) { return found }
        let known = try scopes().flatMap { try $0.collections() }.map(\.fullName).sorted()
        throw QuireError(
            .notFound,
            "database '\(self.name)' has no collection '\(name.fullName)' (it has: \(known.joined(separator: ", ")))")
    }

    /// The collection `name`, created when missing.
    func collection(creatingIfMissing name: CollectionName) throws -> Quire.Collection {
        try collection(name: name.name, scope: name.scope) ?? createCollection(name: name.name, scope: name.scope)
    }

    /// Every collection, the default one first, then by full name.
    func allCollections() throws -> [Quire.Collection] {
        let all = try scopes().flatMap { try $0.collections() }
        let isDefault = { (collection: Quire.Collection) in
            collection.scope.name == CollectionName.defaultName && collection.name == CollectionName.defaultName
        }
        return all.filter(isDefault) + all.filter { !isDefault($0) }.sorted { $0.fullName < $1.fullName }
    }

    /// The collections of the database `name` in `directory`, as commands take them (`name`
    /// in the default scope, `scope.name` elsewhere), sorted; none when there is no such
    /// database or it cannot be opened (for shell completion, which must not fail).
    static func collectionNames(ofDatabaseNamed name: String, inDirectory directory: String) -> [String] {
        guard !name.isEmpty, Database.exists(withName: name, inDirectory: directory),
            let database = try? Database(name: name, config: DatabaseConfiguration(directory: directory))
        else { return [] }
        defer { try? database.close() }
        let names = ((try? database.scopes()) ?? []).flatMap { scope in
            ((try? scope.collections()) ?? []).map {
                scope.name == Database.defaultScopeName ? $0.name : "\(scope.name).\($0.name)"
            }
        }
        return names.sorted()
    }
}
