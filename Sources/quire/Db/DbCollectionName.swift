import Foundation
import Quire

/// A collection named on the command line: `scope.collection`, a bare `collection` of the
/// default scope, or `_default` for the default collection.
struct DbCollectionName: Equatable {
    /// The scope's name.
    var scope: String
    /// The collection's name.
    var name: String

    /// Parses `text`; nil means the default collection.
    init(_ text: String?) {
        guard let text, !text.isEmpty, text != Database.defaultCollectionName else {
            scope = Database.defaultScopeName
            name = Database.defaultCollectionName
            return
        }
        if let dot = text.firstIndex(of: ".") {
            scope = String(text[..<dot])
            name = String(text[text.index(after: dot)...])
        } else {
            scope = Database.defaultScopeName
            name = text
        }
    }

    /// `scope.collection`.
    var fullName: String { "\(scope).\(name)" }

    /// The collection in `database`.
    ///
    /// - Throws: ``DbFailure`` naming the collections there are when it does not exist.
    func resolve(in database: Database) throws -> Collection {
        if let found = try database.collection(name: name, scope: scope) { return found }
        let known = try database.scopes().flatMap { try $0.collections() }.map(\.fullName).sorted()
        throw DbFailure(
            "Database '\(database.name)' has no collection '\(fullName)' (it has: \(known.joined(separator: ", ")))")
    }

    /// The collection in `database`, created when missing.
    func resolveOrCreate(in database: Database) throws -> Collection {
        try database.collection(name: name, scope: scope) ?? database.createCollection(name: name, scope: scope)
    }

    /// Every collection of `database`, the default one first, then by full name.
    static func all(in database: Database) throws -> [Collection] {
        let all = try database.scopes().flatMap { try $0.collections() }
        let isDefault = { (collection: Collection) in
            collection.scope.name == Database.defaultScopeName && collection.name == Database.defaultCollectionName
        }
        return all.filter(isDefault) + all.filter { !isDefault($0) }.sorted { $0.fullName < $1.fullName }
    }
}
