import Foundation
import Quire
import QuireSync

/// The test kit's predefined conflict resolvers (`conflictResolver` of a replication collection:
/// spec/api/conflict-resolvers.md of couchbase-lite-tests), answered as Couchbase Lite C's test
/// server answers them (CBLReplicationConflictResolver.cpp):
/// - `local-wins` and `remote-wins` keep that side, `delete` deletes the document;
/// - `merge` (`params.property`) keeps the remote document with the property set to the array
///   of the local and the remote value (null for a side without it);
/// - `merge-dict` (`params.property`) keeps the remote document with the property set to the
///   union of both dictionaries, or to the text `Both values are not dictionary`, or to
///   `Conflicting values found at key named '<key>'` when a key has two values.
///
/// `merge` and `merge-dict` delete the document when a side is deleted.
struct PredefinedConflictResolver: ConflictResolverProtocol {
    /// A resolver of the list.
    enum Kind: Sendable, Equatable {
        case localWins
        case remoteWins
        case delete
        case merge(property: String)
        case mergeDictionaries(property: String)
    }

    let kind: Kind

    /// Reads `{name, params}`; an unknown name or a missing parameter is a 400.
    init(_ request: RequestObject) throws {
        let name = try request.string("name")
        func property() throws -> String {
            guard let params = try request.optionalObject("params") else {
                throw TestServerError.request("'\(request.name("params"))' is missing: '\(name)' needs a 'property'")
            }
            return try params.string("property")
        }
        switch name {
        case "local-wins": kind = .localWins
        case "remote-wins": kind = .remoteWins
        case "delete": kind = .delete
        case "merge": kind = .merge(property: try property())
        case "merge-dict": kind = .mergeDictionaries(property: try property())
        default:
            throw TestServerError.request(
                "'\(request.name("name"))' '\(name)' is not a predefined conflict resolver "
                    + "(local-wins, remote-wins, delete, merge, merge-dict)")
        }
    }

    func resolve(conflict: Conflict) -> Document? {
        switch kind {
        case .localWins: return conflict.localDocument
        case .remoteWins: return conflict.remoteDocument
        case .delete: return nil
        case .merge(let property):
            guard let local = conflict.localDocument, let remote = conflict.remoteDocument else { return nil }
            let merged = remote.toMutable()
            let values = MutableArrayObject()
            values.addValue(local.value(forKey: property))
            values.addValue(remote.value(forKey: property))
            merged.setValue(values, forKey: property)
            return merged
        case .mergeDictionaries(let property):
            guard let local = conflict.localDocument, let remote = conflict.remoteDocument else { return nil }
            let merged = remote.toMutable()
            guard let localDictionary = local.dictionary(forKey: property),
                let remoteDictionary = remote.dictionary(forKey: property)
            else {
                merged.setValue("Both values are not dictionary", forKey: property)
                return merged
            }
            let union = localDictionary.toMutable()
            for key in remoteDictionary.keys {
                let value = remoteDictionary.value(forKey: key)
                if union.contains(key: key), !Self.equal(union.value(forKey: key), value) {
                    merged.setValue("Conflicting values found at key named '\(key)'", forKey: property)
                    return merged
                }
                union.setValue(value, forKey: key)
            }
            merged.setValue(union, forKey: property)
            return merged
        }
    }

    /// Whether two property values are equal, as Fleece compares values.
    private static func equal(_ left: Any?, _ right: Any?) -> Bool {
        let wrap = MutableDictionaryObject()
        wrap.setValue(left, forKey: "v")
        let other = MutableDictionaryObject()
        other.setValue(right, forKey: "v")
        return wrap.toJSON() == other.toJSON()
    }
}
