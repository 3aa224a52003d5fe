import Foundation
import Quire
import QuireTestSupport
import Testing

/// Collections and databases from the shell: mkcoll, rmcoll, lscoll, cp, and imports that
/// name their collection or fail part way.
@Suite(.offCooperativePool) struct DbCollectionCommandTests {
    typealias Fixture = DbCommandTests.Fixture

    @Test func mkcollLscollRmcoll() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "shop"])
        #expect(
            try quire.succeed(["db", "mkcoll", "shop", "store.products", "orders"])
                == "Created store.products, _default.orders\n")
        _ = try quire.succeed(["db", "put", "shop", "p1", "{}", "-c", "store.products"])
        let listed = try DbCommandTests.lines(try quire.succeed(["db", "lscoll", "shop", "--json"]))
        #expect(listed.map { $0["name"] } == ["_default._default", "_default.orders", "store.products"])
        #expect(listed[2]["documents"] == 1 && listed[2]["lastSequence"] == 1)
        let table = try quire.succeed(["db", "lscoll", "shop"])
        #expect(table.hasPrefix("COLLECTION") && table.contains("store.products     1"), "\(table)")

        // An existing or invalid name creates nothing.
        let again = try quire.run(["db", "mkcoll", "shop", "a.b", "store.products"])
        #expect(again.status == 1 && again.errors.contains("already has a collection 'store.products'"))
        let invalid = try quire.run(["db", "mkcoll", "shop", "a.b", "_bad"])
        #expect(invalid.status == 1 && invalid.errors.hasPrefix("Error: "), "\(invalid.errors)")
        #expect(try DbCommandTests.lines(try quire.succeed(["db", "lscoll", "shop", "--json"])).count == 3)

        #expect(try quire.succeed(["db", "rmcoll", "shop", "store.products"]) == "Deleted store.products\n")
        let missing = try quire.run(["db", "rmcoll", "shop", "store.products"])
        #expect(missing.status == 1 && missing.errors.contains("has no collection 'store.products'"))
        let defaultOne = try quire.run(["db", "rmcoll", "shop", "_default"])
        #expect(defaultOne.status == 1 && defaultOne.errors.contains("cannot be deleted"), "\(defaultOne.errors)")
    }

    @Test func cpCopiesEveryCollectionToANewDatabase() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "shop", "-c", "store.products"])
        _ = try quire.succeed(["db", "put", "shop", "p1", #"{"n":1}"#, "-c", "store.products"])
        _ = try quire.succeed(["db", "put", "shop", "note", #"{"n":2}"#])
        _ = try quire.succeed(["db", "mkindex", "shop", "by_n", "--value", "n", "-c", "store.products"])
        #expect(try quire.succeed(["db", "cp", "shop", "backup/copy.quire"]).hasPrefix("Copied "))
        let original = try JSONReader.parse(try quire.succeed(["db", "info", "shop", "--json"]))
        let copy = try JSONReader.parse(try quire.succeed(["db", "info", "backup/copy.quire", "--json"]))
        #expect(
            copy["collections"]?.arrayValue?.map { $0["name"] }
                == original["collections"]?.arrayValue?.map { $0["name"] })
        #expect(copy["collections"]?[1]?["indexes"]?[0]?["name"] == "by_n")
        #expect(copy["publicUUID"] != original["publicUUID"])
        #expect(copy["previousPrivateUUIDs"]?[0] == original["privateUUID"])
        for (id, collection) in [("p1", "store.products"), ("note", "_default")] {
            let a = try quire.succeed(["db", "cat", "shop", id, "-c", collection, "--json"])
            let b = try quire.succeed(["db", "cat", "backup/copy.quire", id, "-c", collection, "--json"])
            #expect(a == b)
        }
        let onto = try quire.run(["db", "cp", "shop", "backup/copy.quire"])
        #expect(onto.status == 1 && onto.errors.contains("already exists"), "\(onto.errors)")
    }

    /// `scope.name.jsonl` goes to scope.name (created), unless -c says otherwise; a failed
    /// import says which documents it kept and leaves no collection it created for nothing.
    @Test func importNamesItsCollectionAndSaysWhatAFailureKept() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "shop"])
        _ = try fixture.scratch.write(#"{"_id":"a"}"# + "\n" + #"{"_id":"b"}"# + "\n", to: "store.products.jsonl")
        _ = try quire.succeed(["db", "import", "shop", "store.products.jsonl"])
        #expect(try quire.succeed(["db", "ls", "shop", "-c", "store.products"]).contains("b"))
        _ = try quire.succeed(["db", "mkcoll", "shop", "other"])
        _ = try quire.succeed(["db", "import", "shop", "store.products.jsonl", "-c", "other"])
        #expect(try DbCommandTests.lines(try quire.succeed(["db", "ls", "shop", "-c", "other", "--json"])).count == 2)

        // Five good lines, then a bad one, in batches of two: two batches were committed.
        let good = (1...5).map { #"{"_id":"d\#($0)"}"# }
        _ = try fixture.scratch.write((good + [#"{"_id": 7}"#]).joined(separator: "\n"), to: "crm.people.jsonl")
        let failed = try quire.run(["db", "import", "shop", "crm.people.jsonl", "--batch-size", "2"])
        #expect(failed.status == 1)
        #expect(
            failed.errors
                == "Error: crm.people.jsonl line 6 has no \"_id\" string (the 4 documents up to line 4 (2 batches of at most 2) are kept in crm.people).\n",
            "\(failed.errors)")
        #expect(
            try DbCommandTests.lines(try quire.succeed(["db", "ls", "shop", "-c", "crm.people", "--json"])).count == 4)

        // Nothing saved: the collection the import created is gone again.
        _ = try fixture.scratch.write(#"{"_id": 1}"#, to: "crm.broken.jsonl")
        let nothing = try quire.run(["db", "import", "shop", "crm.broken.jsonl"])
        #expect(
            nothing.status == 1 && nothing.errors.contains("(nothing was saved in crm.broken)"), "\(nothing.errors)")
        let names = try DbCommandTests.lines(try quire.succeed(["db", "lscoll", "shop", "--json"])).map { $0["name"] }
        #expect(!names.contains("crm.broken") && names.contains("crm.people"))
    }
}
