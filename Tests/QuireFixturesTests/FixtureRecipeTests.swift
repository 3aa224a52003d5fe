import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct FixtureRecipeTests {
    /// A scratch folder with a small travel dataset in `data/travel` and a JSON Lines file.
    private func prepared() throws -> ScratchFolder {
        let scratch = try ScratchFolder()
        try DatasetGenerator(kind: .travel, count: 4, seed: 1).write(to: scratch.file("data/travel"))
        _ = try scratch.write(#"{"email":"a@x","n":1}"# + "\n", to: "data/people.jsonl")
        return scratch
    }

    private func parse(_ text: String, in scratch: ScratchFolder) throws -> FixtureRecipe {
        let url = try scratch.write(text, to: "recipes/r.yaml")
        return try FixtureRecipe.load(from: url)
    }

    @Test func aDatasetRecipeWithoutCollectionsLoadsAllOfThemInOrder() throws {
        let scratch = try prepared()
        defer { scratch.cleanUp() }
        let text = "name: travel\nsource:\n  dataset: ../data/travel\n"
        let recipe = try parse(text, in: scratch)
        #expect(recipe.name == "travel")
        #expect(recipe.source == .dataset(scratch.file("data/travel").standardizedFileURL))
        #expect(recipe.collections.map(\.name) == TravelGenerator.collections)
        #expect(recipe.collections.allSatisfy { $0.idField == "_id" && $0.indexes.isEmpty && $0.expiration == nil })
        #expect(recipe.contentDigest == SHA256.hash(data: Data(text.utf8)))
    }

    @Test func readsEverySetting() throws {
        let scratch = try prepared()
        defer { scratch.cleanUp() }
        let recipe = try parse(
            """
            name: people.v2
            source:
              jsonl:
                _default: ../data/people.jsonl
                app.people: ../data/people.jsonl
            collections:
              - name: app.people
                id: email
                indexes:
                  - {name: by_n, value: [n, email]}
                  - name: text
                    fullText: [bio]
                    ignoreAccents: true
                    language: en
                expiration: {after: 12h}
              - name: _default
                expiration:
                  field: expires
            """, in: scratch)
        let file = scratch.file("data/people.jsonl").standardizedFileURL
        #expect(
            recipe.source
                == .jsonLines([
                    .init(collection: "_default._default", url: file), .init(collection: "app.people", url: file),
                ]))
        #expect(recipe.collections.map(\.name) == ["app.people", "_default._default"])
        let people = recipe.collections[0]
        #expect(people.idField == "email")
        #expect(
            people.indexes == [
                .init(name: "by_n", kind: .value, expressions: ["n", "email"]),
                .init(name: "text", kind: .fullText, expressions: ["bio"], ignoreAccents: true, language: "en"),
            ])
        #expect(people.expiration == .after(seconds: 12 * 3600))
        #expect(recipe.collections[1].expiration == .field("expires"))
    }

    @Test(
        arguments: [
            ("90", 90), ("90s", 90), ("15m", 900), ("2h", 7200), ("30d", 2_592_000), ("2w", 1_209_600),
        ] as [(String, Int64)])
    func durations(text: String, seconds: Int64) {
        #expect(FixtureRecipe.Expiration.seconds(fromDuration: text) == seconds)
    }

    @Test(arguments: ["", "0", "-5d", "5y", "d", "1.5h", "99999999999w"])
    func badDurations(text: String) {
        #expect(FixtureRecipe.Expiration.seconds(fromDuration: text) == nil)
    }

    /// Each bad recipe, the line and column of the complaint, and what it says.
    static let badRecipes: [(text: String, location: String, message: String)] = [
        ("", "r.yaml:1:1", "the recipe is empty"),
        ("name: [unclosed\n", "r.yaml:2:1", "invalid YAML"),
        ("name: a\nname: b\nsource: {dataset: ../data/travel}\n", "r.yaml:1:1", "repeats the key 'name'"),
        ("- a\n- b\n", "r.yaml:1:1", "the recipe must be a mapping"),
        ("source: {dataset: ../data/travel}\n", "r.yaml:1:1", "the recipe is missing 'name'"),
        (
            "name: a\nsorce: {dataset: x}\n", "r.yaml:2:1",
            "unknown key 'sorce'; expected 'name', 'source', 'collections'"
        ),
        ("name: ../evil\nsource: {dataset: ../data/travel}\n", "r.yaml:1:7", "name '../evil' must be 1 to 128"),
        ("name: a\nsource: {}\n", "r.yaml:2:9", "source needs 'dataset' or 'jsonl'"),
        ("name: a\nsource: {dataset: ../data/travel, jsonl: {}}\n", "r.yaml:2:9", "source takes only one of"),
        ("name: a\nsource:\n  dataset: ../nowhere\n", "r.yaml:3:12", "source.dataset '../nowhere' does not exist"),
        ("name: a\nsource:\n  jsonl:\n    _default: ../data/travel\n", "r.yaml:4:15", "is a folder, not a file"),
        ("name: a\nsource:\n  jsonl:\n    bad name: ../data/people.jsonl\n", "r.yaml:4:5", "'bad name' is neither"),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.ghost\n", "r.yaml:4:11",
            "collections[0].name 'inventory.ghost' is not in the source"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n  - name: inventory.hotel\n",
            "r.yaml:5:5", "collections[1] names 'inventory.hotel' a second time"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n    indexes:\n"
                + "      - {name: i, value: [a], fullText: [b]}\n", "r.yaml:6:9",
            "takes only one of 'value' or 'fullText'"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n    indexes:\n"
                + "      - {name: i, value: [a], language: en}\n", "r.yaml:6:41",
            "indexes[0].language is only for full-text"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n    indexes:\n"
                + "      - {name: i, value: []}\n", "r.yaml:6:26", "indexes[0].value must list at least one entry"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n    expiration: {after: soon}\n",
            "r.yaml:5:25", "expiration.after 'soon' is not a duration"
        ),
        (
            "name: a\nsource: {dataset: ../data/travel}\ncollections:\n  - name: inventory.hotel\n    id:\n",
            "r.yaml:5:8", "collections[0].id is empty"
        ),
    ]

    @Test(arguments: badRecipes.indices)
    func badRecipesSayWhereAndWhat(index: Int) throws {
        let scratch = try prepared()
        defer { scratch.cleanUp() }
        let (text, location, message) = Self.badRecipes[index]
        expectQuireError(.invalidParameter, containing: [location + ":", message]) { _ = try parse(text, in: scratch) }
    }

    @Test func aMissingRecipeIsNotFound() {
        expectQuireError(.notFound, containing: ["cannot read recipe"]) {
            _ = try FixtureRecipe.load(from: URL(fileURLWithPath: "/nonexistent/recipe.yaml"))
        }
    }
}
