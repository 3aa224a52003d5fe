import Quire

/// The query and index steps on the Quire engine.
enum QuireQueries {
    static func run(_ query: Step.Query, on database: Database) throws -> SpecValue {
        throw EngineError.unsupported("queries")
    }

    static func createIndex(_ index: Step.Index, in collection: Collection) throws {
        throw EngineError.unsupported("indexes")
    }

    static func deleteIndex(_ name: String, in collection: Collection) throws {
        throw EngineError.unsupported("indexes")
    }

    static func indexes(in collection: Collection) throws -> [String] {
        throw EngineError.unsupported("indexes")
    }
}
