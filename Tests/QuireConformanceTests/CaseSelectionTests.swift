import Testing

@testable import QuireConformance

@Suite struct CaseSelectionTests {
    private let suite = ConformanceSuite.parse(
        """
        about: x
        tags: [area]
        cases:
          - name: alpha
            tags: [fast]
            steps: [{scopes: }]
          - name: beta
            vectors: {n: [1, 2, 3]}
            steps: [{scopes: }]
          - name: gamma
            steps: [{scopes: }]
        """, path: "s.yaml")

    private func names(_ filters: [String], shard: String? = nil) throws -> [String] {
        let selection = CaseSelection(
            filters: try filters.map(CaseFilter.init(parsing:)), shard: try shard.map(Shard.init(parsing:)))
        return selection.apply(to: suite.cases).map(\.name)
    }

    @Test func filtersByTagNameAndRegex() throws {
        #expect(try names([]).count == 5)
        #expect(try names(["tag:fast"]) == ["alpha"])
        #expect(try names(["tag:area"]).count == 5)
        #expect(try names(["beta"]) == ["beta [n=1]", "beta [n=2]", "beta [n=3]"])
        #expect(try names(["beta [n=2]"]) == ["beta [n=2]"])
        #expect(try names(["/a$/"]) == ["alpha", "gamma"])
        #expect(try names(["/^s\\.yaml :: b.*3/", "gamma"]) == ["beta [n=3]", "gamma"])
    }

    @Test func shardsAreDisjointBalancedAndCoverEverything() throws {
        let parts = try (1...3).map { try names([], shard: "\($0)/3") }
        #expect(parts.map(\.count) == [2, 2, 1])
        #expect(Set(parts.flatMap { $0 }).count == 5)
        #expect(parts[0] == ["alpha", "beta [n=3]"])
    }

    @Test func badFiltersAndShardsAreRefused() {
        #expect(throws: SelectionError.self) { try CaseFilter(parsing: "/(/") }
        #expect(throws: SelectionError.self) { try Shard(parsing: "0/2") }
        #expect(throws: SelectionError.self) { try Shard(parsing: "2") }
        #expect(throws: SelectionError.self) { try Shard(parsing: "3/2") }
    }

    @Test func unreadableFilesSurviveFilters() throws {
        let broken = ConformanceSuite.parse("about: [", path: "bad.yaml")
        let selection = CaseSelection(filters: [.tag("nothing")])
        #expect(selection.apply(to: broken.cases).map(\.name) == [SpecFile.invalidFileCaseName])
    }
}
