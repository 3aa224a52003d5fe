/// Decodes the steps on held replicators (``Step/ReplicatorOperation``).
enum ReplicatorStepDecoder {
    static func decode(keyword: String, arguments value: SpecValue) throws -> Step? {
        guard Step.ReplicatorOperation.keywords.contains(keyword) else { return nil }
        let arguments = try Arguments(keyword: keyword, value)
        switch keyword {
        case "startReplicator": return .replicator(.start(try settings(arguments)))
        case "waitForReplicator":
            let activity = try arguments.optionalString("activity") ?? "idle"
            guard ["idle", "stopped"].contains(activity) else {
                throw ArgumentError(
                    "waitForReplicator: 'activity' must be idle or stopped, not \(JSONText.quote(activity))")
            }
            return .replicator(.wait(name: try arguments.string("name"), activity: activity))
        case "stopReplicator": return .replicator(.stop(name: try arguments.string("name")))
        case "pendingDocumentIDs":
            return .replicator(
                .pendingDocumentIDs(name: try arguments.string("name"), collection: try arguments.collection()))
        case "isDocumentPending":
            return .replicator(
                .isDocumentPending(
                    name: try arguments.string("name"), id: try arguments.string("id"),
                    collection: try arguments.collection()))
        case "replicationEvents": return .replicator(.events(name: try arguments.string("name")))
        case "waitForDocument":
            let key = try arguments.optionalString("key")
            guard (key == nil) == (arguments.values["equals"] == nil) else {
                throw ArgumentError("waitForDocument: 'key' and 'equals' go together")
            }
            return .replicator(
                .waitForDocument(
                    Step.WaitForDocument(
                        database: try arguments.optionalString("database"),
                        document: DocumentReference(try arguments.string("id"), in: try arguments.collection()),
                        deleted: try arguments.bool("deleted") ?? false, key: key, equals: arguments.values["equals"])))
        default: return nil
        }
    }

    private static func settings(_ arguments: Arguments) throws -> Step.ReplicatorSettings {
        let typeName = try arguments.string("type")
        guard let type = Step.ReplicationType(rawValue: typeName) else {
            let names = Step.ReplicationType.allCases.map(\.rawValue)
            throw ArgumentError(
                "startReplicator: unknown type \(JSONText.quote(typeName))\(Suggestion.didYouMean(typeName, in: names))"
            )
        }
        // `collections` is a list of names (shared options from the step) or a mapping of
        // each name to its own options.
        var collections: [Step.CollectionSettings] = []
        switch arguments["collections"] {
        case nil:
            collections = [try collectionSettings(.default, arguments)]
        case .array(let names)?:
            for name in names {
                guard let text = name.stringValue else {
                    throw ArgumentError("startReplicator: 'collections' lists names")
                }
                collections.append(try collectionSettings(CollectionName(fullName: text), arguments))
            }
        case .object(let members)?:
            for (name, options) in members.sorted(by: { $0.key < $1.key }) {
                let nested = try Arguments(keyword: "startReplicator collection \(name)", options)
                collections.append(try collectionSettings(CollectionName(fullName: name), nested))
            }
        case let other?:
            throw ArgumentError("startReplicator: 'collections' must be a list or a mapping, not \(other.typeName)")
        }
        guard !collections.isEmpty else { throw ArgumentError("startReplicator: 'collections' names no collection") }
        return Step.ReplicatorSettings(
            name: try arguments.string("name"), url: try arguments.string("url"),
            database: try arguments.optionalString("database"),
            type: type, continuous: try arguments.bool("continuous") ?? true,
            enableAutoPurge: try arguments.bool("enableAutoPurge") ?? true, reset: try arguments.bool("reset") ?? false,
            collections: collections)
    }

    private static func collectionSettings(_ name: CollectionName, _ arguments: Arguments) throws
        -> Step.CollectionSettings
    {
        Step.CollectionSettings(
            collection: name, documentIDs: try arguments.strings("documentIDs"),
            channels: try arguments.strings("channels"),
            pushFilter: try filter(arguments, "pushFilter"), pullFilter: try filter(arguments, "pullFilter"),
            conflictResolver: try resolver(arguments))
    }

    private static func filter(_ arguments: Arguments, _ key: String) throws -> Step.DocumentFilter? {
        guard let members = try arguments.object(key) else { return nil }
        let nested = try Arguments(keyword: "\(arguments.keyword) \(key)", .object(members))
        let property = try nested.optionalString("key")
        guard (property == nil) == (nested.values["equals"] == nil) else {
            throw ArgumentError("\(arguments.keyword): \(key) 'key' and 'equals' go together")
        }
        return Step.DocumentFilter(
            documentIDs: try nested.strings("documentIDs"), key: property, equals: nested.values["equals"],
            deleted: try nested.bool("deleted"), accessRemoved: try nested.bool("accessRemoved"))
    }

    private static func resolver(_ arguments: Arguments) throws -> Step.ResolverRule? {
        switch arguments["conflictResolver"] {
        case nil: return nil
        case .string("localWins")?: return .localWins
        case .string("remoteWins")?: return .remoteWins
        case .string("delete")?: return .delete
        case .object(let members)? where members.keys.sorted() == ["merge"]:
            let nested = try Arguments(keyword: "\(arguments.keyword) conflictResolver", .object(members))
            return .merge(keys: try nested.strings("merge") ?? [])
        case let other?:
            throw ArgumentError(
                "\(arguments.keyword): 'conflictResolver' must be localWins, remoteWins, delete or {merge: [keys]}, not \(ValueMatcher.render(other, limit: 80))"
            )
        }
    }
}
