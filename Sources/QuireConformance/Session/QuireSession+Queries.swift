import Quire

extension QuireSession {
    /// The steps on queries, indexes and change listeners.
    func queryStep(_ step: Step, in context: StepContext) throws -> SpecValue? {
        switch step {
        case .index(let name, let collectionName):
            return try collection(collectionName).index(withName: name).map { .object(["name": .string($0.name)]) }
                ?? .null
        case .query(let query):
            if context.discardsResult {
                try QuireQueries.drain(query, on: current)
                return nil
            }
            return try QuireQueries.run(query, on: current)
        case .createIndex(let index):
            try QuireQueries.createIndex(index, in: try collection(index.collection))
            return nil
        case .deleteIndex(let name, let collectionName):
            try QuireQueries.deleteIndex(name, in: try collection(collectionName))
            return nil
        case .indexes(let name):
            return .array(try QuireQueries.indexes(in: try collection(name)).sorted().map(SpecValue.string))
        case .explain(let query):
            return try QuireQueries.explain(query, on: current)
        case .addChangeListener(let listener):
            if let other = listener.sameQueryAs {
                try changeRecorder.add(listener, query: try changeRecorder.query(of: other))
            } else if let sql = listener.query {
                let query = try current.createQuery(sql)
                if !listener.parameters.isEmpty { query.parameters = QuireQueries.parameters(listener.parameters) }
                try changeRecorder.add(listener, query: query)
            } else {
                try changeRecorder.add(listener, to: try collection(listener.collection))
            }
            return nil
        case .waitForChange(let name):
            return try changeRecorder.waitForChange(name)
        case .setQueryParameters(let name, let parameters):
            try changeRecorder.query(of: name).parameters = QuireQueries.parameters(parameters)
            return nil
        case .changes(let name):
            return try changeRecorder.changes(of: name)
        case .removeChangeListener(let name):
            try changeRecorder.remove(name)
            return nil
        default: throw EngineError.misrouted(step, to: "queryStep")
        }
    }
}
