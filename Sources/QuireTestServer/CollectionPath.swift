import Quire

/// A collection as the test-kit protocol names it: `<scope>.<collection>`, or a bare
/// `<collection>` of the default scope.
struct CollectionPath: Sendable, Hashable, CustomStringConvertible {
    let scope: String
    let collection: String

    init(_ text: String) throws {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1 where !parts[0].isEmpty:
            (scope, collection) = (Database.defaultScopeName, parts[0])
        case 2 where !parts[0].isEmpty && !parts[1].isEmpty:
            (scope, collection) = (parts[0], parts[1])
        default:
            throw TestServerError.request("'\(text)' is not a collection name of the form <scope>.<collection>")
        }
    }

    /// `scope.collection`.
    var description: String { "\(scope).\(collection)" }

    /// The collection in `database`, or a 400 naming it and the database.
    func existing(in database: Database, databaseName: String) throws -> Collection {
        guard let found = try database.collection(name: collection, scope: scope) else {
            throw TestServerError.request("collection '\(self)' not found in database '\(databaseName)'")
        }
        return found
    }
}
