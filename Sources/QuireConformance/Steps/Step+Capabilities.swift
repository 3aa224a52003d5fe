extension Step {
    /// What an engine must be able to do to perform this step: the step itself (its keyword,
    /// or ``EngineCapability/heldObjects`` for steps on held objects) and any feature its
    /// arguments ask for.
    package var requiredCapabilities: [EngineCapability] {
        switch self {
        case .save(let save):
            var needed = [EngineCapability(keyword)]
            if case .json = save.content { needed.append(.rawJSON) }
            if save.id == nil { needed.append(.generatedIDs) }
            if save.concurrency != .lastWriteWins || save.baseRevisionID != nil { needed.append(.concurrencyControl) }
            return needed
        case .delete(let delete):
            var needed = [EngineCapability(keyword)]
            if delete.concurrency != .lastWriteWins || delete.baseRevisionID != nil {
                needed.append(.concurrencyControl)
            }
            return needed
        case .query(let query):
            var needed = [EngineCapability(keyword)]
            if !query.parameters.isEmpty { needed.append(.queryParameters) }
            if query.result != .rows || query.reads != nil { needed.append(.queryResultSets) }
            return needed
        case .advanceClock:
            return [.manualClock]
        case .saveObject, .deleteObject, .toMutable, .object, .purgeObject:
            return [.heldObjects]
        case .container(.saveHeldBlob):
            // `saveBlob` of a held object: the keyword alone would let an engine that saves
            // blob text take it.
            return [EngineCapability(keyword), .heldObjects]
        case .scopeCollection, .scopeCollections, .databaseOf:
            return ["heldScopes"]
        case .openConfigured:
            return ["open.fullSync"]
        case .handle(let operation):
            return [EngineCapability("handle.\(operation.keyword)")]
        case .deleteDatabaseByName:
            return ["deleteDatabaseByName"]
        default:
            return [EngineCapability(keyword)]
        }
    }

    /// Members of a step's result that only engines with a capability report, by step
    /// keyword: an expectation reading one needs the capability too.
    package static let resultCapabilities: [String: (members: Set<String>, capability: EngineCapability)] = [
        "replicate": (["resumed", "examined", "since", "checkpoints"], .replicationCheckpoints)
    ]
}
