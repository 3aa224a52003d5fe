import Quire

extension QuireSession {
    /// The steps on scopes and collections: create, look up, list and count them, holding the objects an app would hold.
    func collectionStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .createCollection(let name):
            let collection = try current.createCollection(name: name.name, scope: name.scope)
            hold(collection, as: name)
            return info(collection)
        case .deleteCollection(let name):
            try current.deleteCollection(name: name.name, scope: name.scope)
            return nil
        case .collection(let name):
            // The default collection is asked for as an app asks for it.
            let collection =
                name == .default
                ? try current.defaultCollection() : try current.collection(name: name.name, scope: name.scope)
            hold(collection, as: name)
            return collection.map(info) ?? .null
        case .scopeCollection(let name, let scopeName):
            let collection = try heldScope(scopeName).collection(name: name)
            hold(collection, as: CollectionName(name, scope: scopeName))
            return collection.map(info) ?? .null
        case .scopeCollections(let scopeName):
            return .array(try heldScope(scopeName).collections().map(\.name).sorted().map(SpecValue.string))
        case .collections(let scope):
            return .array(try current.collections(scope: scope).map { .string($0.name) })
        case .scope(let name):
            let scope = name == Database.defaultScopeName ? try current.defaultScope() : try current.scope(name: name)
            heldScopes[HeldKey(current, name)] = scope
            return scope.map { .object(["name": .string($0.name)]) } ?? .null
        case .scopes:
            return .array(try current.scopes().map(\.name).sorted().map(SpecValue.string))
        case .databaseOf(let owner):
            let database: Database
            switch owner {
            case .collection(let name): database = try collection(name).database
            case .scope(let name): database = try heldScope(name).database
            }
            return .object(["name": .string(database.name), "isCurrent": .bool(database === current)])
        case .count(let name):
            let collection = try collection(name)
            return .int(Int(collection.count))
        default: throw EngineError.misrouted(step, to: "collectionStep")
        }
    }

    func collection(_ name: CollectionName) throws -> Collection {
        if let held = held[HeldKey(current, name.fullName)] { return held }
        guard let collection = try current.collection(name: name.name, scope: name.scope) else {
            throw QuireError(.notFound, "collection \(name.fullName) does not exist")
        }
        hold(collection, as: name)
        return collection
    }

    func collection(_ name: CollectionName, in database: Database) throws -> Collection {
        if database === current { return try collection(name) }
        guard let collection = try database.collection(name: name.name, scope: name.scope) else {
            throw QuireError(.notFound, "collection \(name.fullName) does not exist in '\(database.name)'")
        }
        return collection
    }

    /// Holds `collection` (and its scope) as the current database object's `name`; nil lets go.
    func hold(_ collection: Collection?, as name: CollectionName) {
        held[HeldKey(current, name.fullName)] = collection
        if let collection { heldScopes[HeldKey(current, collection.scope.name)] = collection.scope }
    }

    /// The scope object held as `name` through the current database object, or else looked up.
    func heldScope(_ name: String) throws -> Scope {
        if let scope = heldScopes[HeldKey(current, name)] { return scope }
        let scope = name == Database.defaultScopeName ? try current.defaultScope() : try current.scope(name: name)
        guard let scope else {
            throw QuireError(.notFound, "scope \(name) does not exist, and no step held a Scope object of that name")
        }
        heldScopes[HeldKey(current, name)] = scope
        return scope
    }

    func info(_ collection: Collection) -> SpecValue {
        .object([
            "name": .string(collection.name), "scope": .string(collection.scope.name),
            "fullName": .string(collection.fullName),
        ])
    }
}
