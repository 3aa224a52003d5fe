import Foundation
import Quire
import QuireTestSupport
import Testing

/// `quire db` subcommands run as the built executable: each one on good input, with its
/// readable and its JSON output, and bad input of every kind refused with one sentence on
/// standard error and exit status 1 (64 for a command line it does not understand).
@Suite(.offCooperativePool) struct DbCommandTests {
    /// A scratch folder and a runner working in it.
    struct Fixture {
        let scratch: DbScratchFolder
        let quire: DbCommandRunner

        init() throws {
            scratch = try DbScratchFolder()
            quire = DbCommandRunner(
                executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
                directory: scratch.url)
        }
    }

    /// Each line of JSON Lines output, parsed.
    static func lines(_ output: String) throws -> [JSONValue] {
        try output.split(separator: "\n").map { try JSONReader.parse(String($0)) }
    }

    @Test func createPutCatLsRmAndExpire() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        let created = try quire.succeed(["db", "create", "shop.quire", "--collection", "store.products", "--json"])
        #expect(try JSONReader.parse(created)["collections"] == ["_default._default", "store.products"])
        #expect(try quire.run(["db", "create", "shop.quire"]).errors.contains("already exists"))

        let products = ["-c", "store.products"]
        let saved = try JSONReader.parse(
            try quire.succeed(["db", "put", "shop", "p1", #"{"name":"Lamp","price":25.0}"#, "--json"] + products))
        #expect(saved["rev"]?.stringValue?.hasPrefix("1-") == true)
        _ = try fixture.scratch.write(#"{"name": "Desk", "price": 120}"#, to: "desk.json")
        _ = try quire.succeed(["db", "put", "shop.quire", "p2", "@desk.json", "--create-only"] + products)
        _ = try quire.succeed(["db", "put", "shop.quire", "p3", "@-"] + products, input: #"{"name": "Chair"}"#)
        let again = try quire.run(["db", "put", "shop.quire", "p2", "{}", "--create-only"] + products)
        #expect(again.status == 1 && again.errors == "Error: Document 'p2' already exists in store.products.\n")
        let absent = try quire.run(["db", "put", "shop.quire", "p9", "{}", "--update-only"] + products)
        #expect(absent.status == 1 && absent.errors.contains("has no document 'p9' to update"))
        _ = try quire.succeed(
            ["db", "put", "shop.quire", "p1", #"{"name":"Lamp","price":30}"#, "--update-only"] + products)

        // cat: the body as stored (1.0 stays 1.0) with "_meta"; --revs: the tree.
        let p2 = try JSONReader.parse(try quire.succeed(["db", "cat", "shop.quire", "p2", "--json"] + products))
        #expect(p2["name"] == "Desk" && p2["price"] == .int(120))
        #expect(p2["_meta"]?["id"] == "p2" && p2["_meta"]?["sequence"]?.int64Value == 2)
        let readable = try quire.succeed(["db", "cat", "shop.quire", "p1"] + products)
        #expect(readable.contains(#"  "price": 30"#) && readable.contains(#""_meta": {"#), "\(readable)")
        let tree = try JSONReader.parse(
            try quire.succeed(["db", "cat", "shop.quire", "p1", "--revs", "--json"] + products))
        let leaf = try #require(tree["leaves"]?[0])
        #expect(leaf["rev"]?.stringValue?.hasPrefix("2-") == true && leaf["current"] == true)
        #expect(leaf["ancestors"]?[0]?.stringValue == saved["rev"]?.stringValue)
        let current = try JSONReader.parse(
            try quire.succeed(
                ["db", "cat", "shop.quire", "p1", "--rev", leaf["rev"]?.stringValue ?? "", "--json"] + products))
        #expect(current["price"] == 30)
        // An ancestor's body is not kept once a newer revision is saved (as in Couchbase Lite).
        let ancestor = try quire.run(
            ["db", "cat", "shop.quire", "p1", "--rev", saved["rev"]?.stringValue ?? ""] + products)
        #expect(
            ancestor.status == 1 && ancestor.errors.contains("store.products has no revision '1-"), "\(ancestor.errors)"
        )

        // ls: readable, JSON Lines, limits, bodies.
        let table = try quire.succeed(["db", "ls", "shop.quire", "store.products"])
        #expect(table.split(separator: "\n").map { $0.split(separator: " ").first ?? "" } == ["ID", "p1", "p2", "p3"])
        let page = try Self.lines(
            try quire.succeed(["db", "ls", "shop.quire", "store.products", "--offset", "1", "--limit", "1", "--json"]))
        #expect(page.map { $0["id"] } == ["p2"])
        let bodies = try Self.lines(
            try quire.succeed(["db", "ls", "shop.quire", "store.products", "--body", "--json", "--sort", "seq"]))
        #expect(bodies.map { $0["id"] } == ["p2", "p3", "p1"] && bodies[0]["body"]?["name"] == "Desk")

        // rm leaves a tombstone --deleted lists; --purge leaves nothing.
        #expect(try quire.succeed(["db", "rm", "shop.quire", "p2"] + products) == "Deleted p2\n")
        let withDeleted = try Self.lines(
            try quire.succeed(["db", "ls", "shop.quire", "store.products", "--deleted", "--json"]))
        #expect(withDeleted.map { $0["id"] } == ["p1", "p2", "p3"] && withDeleted[1]["deleted"] == true)
        #expect(try quire.run(["db", "cat", "shop.quire", "p2"] + products).errors.contains("is deleted"))
        _ = try quire.succeed(["db", "rm", "shop.quire", "p2", "--purge"] + products)
        #expect(
            try Self.lines(try quire.succeed(["db", "ls", "shop.quire", "store.products", "--deleted", "--json"])).count
                == 2)

        // expire: a duration, a date, --clear.
        _ = try quire.succeed(["db", "expire", "shop.quire", "p3", "--in", "1h"] + products)
        let expiring = try JSONReader.parse(try quire.succeed(["db", "cat", "shop.quire", "p3", "--json"] + products))
        let when = try #require(
            expiring["_meta"]?["expiration"]?.stringValue.flatMap { ISO8601DateFormatter().date(from: $0) })
        #expect(when > Date().addingTimeInterval(3_000) && when < Date().addingTimeInterval(3_700))
        #expect(
            try quire.succeed(["db", "expire", "shop.quire", "p3", "2031-01-02T03:04:05Z"] + products).contains(
                "2031-01-02T03:04:05Z"))
        _ = try quire.succeed(["db", "expire", "shop.quire", "p3", "--clear"] + products)
        #expect(
            try JSONReader.parse(try quire.succeed(["db", "cat", "shop.quire", "p3", "--json"] + products))["_meta"]?[
                "expiration"] == nil)
        #expect(try quire.run(["db", "expire", "shop.quire", "p3", "--in", "soon"] + products).status == 64)
    }

    @Test func queriesAndIndexes() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "shop.quire", "--collection", "store.products"])
        let items = [
            ("p1", "Lamp", 25, "a warm reading lamp"), ("p2", "Desk", 120, "an oak desk"),
            ("p3", "Chair", 60, "lamps not included"),
        ]
        for (id, name, price, text) in items {
            _ = try quire.succeed(
                [
                    "db", "put", "shop.quire", id, #"{"name":"\#(name)","price":\#(price),"text":"\#(text)"}"#, "-c",
                    "store.products",
                ])
        }
        let select = "SELECT name, price FROM store.products WHERE price < $max ORDER BY name"
        let rows = try Self.lines(
            try quire.succeed(["db", "query", "shop.quire", select, "--param", "max=100", "--json"]))
        #expect(rows == [["name": "Chair", "price": 60], ["name": "Lamp", "price": 25]])
        let table = try quire.succeed(["db", "query", "shop.quire", select, "--param", "max=100"])
        #expect(table.hasPrefix("name   price\nChair  60\nLamp   25\n(2 rows)"), "\(table)")

        _ = try quire.succeed(["db", "mkindex", "shop.quire", "by_price", "--value", "price", "-c", "store.products"])
        #expect(try quire.succeed(["db", "query", "shop.quire", select, "--explain"]).contains("by_price"))
        _ = try quire.succeed([
            "db", "mkindex", "shop.quire", "words", "--fts", "text", "--language", "en", "-c", "store.products",
        ])
        let matches = try Self.lines(
            try quire.succeed([
                "db", "query", "shop.quire",
                "SELECT META().id AS id FROM store.products WHERE MATCH(words, 'lamp') ORDER BY META().id", "--json",
            ]))
        #expect(matches == [["id": "p1"], ["id": "p3"]])
        let info = try JSONReader.parse(try quire.succeed(["db", "info", "shop.quire", "--json"]))
        let products = try #require(info["collections"]?.arrayValue?.first { $0["name"] == "store.products" })

        #expect(products["indexes"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["by_price", "words"])
        #expect(products["documents"] == 3 && products["lastSequence"] == 3)

        // Accents: an index made with --ignore-accents finds "cafe" in "café"; one without does not.
        _ = try quire.succeed([
            "db", "put", "shop.quire", "p4", #"{"name":"Cup","price":5,"text":"café au lait"}"#, "-c", "store.products",
        ])
        let cafe = "SELECT META().id AS id FROM store.products WHERE MATCH(%@, 'cafe')"
        _ = try quire.succeed([
            "db", "mkindex", "shop.quire", "plain", "--fts", "text", "--language", "none", "-c", "store.products",
        ])
        _ = try quire.succeed([
            "db", "mkindex", "shop.quire", "folded", "--fts", "text", "--language", "none", "--ignore-accents", "-c",
            "store.products",
        ])
        #expect(
            try quire.succeed([
                "db", "query", "shop.quire", cafe.replacingOccurrences(of: "%@", with: "plain"), "--json",
            ]).isEmpty)
        #expect(
            try quire.succeed([
                "db", "query", "shop.quire", cafe.replacingOccurrences(of: "%@", with: "folded"), "--json",
            ]) == #"{"id":"p4"}"# + "\n")

        _ = try quire.succeed(["db", "rmindex", "shop.quire", "by_price", "-c", "store.products"])
        #expect(!(try quire.succeed(["db", "query", "shop.quire", select, "--explain"]).contains("by_price")))
        #expect(
            try quire.run(["db", "rmindex", "shop.quire", "by_price", "-c", "store.products"]).errors.contains(
                "has no index 'by_price'"))
        #expect(try quire.run(["db", "mkindex", "shop.quire", "both", "--value", "a", "--fts", "b"]).status == 64)
    }

    @Test func infoCheckCompactAndReindex() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "shop"])
        _ = try quire.succeed(["db", "put", "shop", "a", #"{"n":1}"#])
        _ = try quire.succeed(["db", "put", "shop", "b", #"{"n":2}"#])
        _ = try quire.succeed(["db", "rm", "shop", "b"])
        let info = try JSONReader.parse(try quire.succeed(["db", "info", "shop", "--json"]))
        #expect(info["publicUUID"]?.stringValue?.count == 32 || info["publicUUID"]?.stringValue?.isEmpty == false)
        #expect((info["size"]?.int64Value ?? 0) > 0 && (info["format"]?.int64Value ?? 0) > 0)
        #expect(info["collections"]?[0]?["documents"] == 1 && info["collections"]?[0]?["deleted"] == 1)
        let text = try quire.succeed(["db", "info", "shop"])
        #expect(text.contains("Public UUID") && text.contains("_default._default  1"), "\(text)")
        for command in ["check", "compact", "reindex"] {
            #expect(try quire.succeed(["db", command, "shop"]).hasSuffix("shop.quire\n"))
            #expect(try JSONReader.parse(try quire.succeed(["db", command, "shop", "--json"]))["ok"] == true)
        }
        // A damaged file: check names the damage and exits 1.
        let file = fixture.scratch.file("shop.quire/db.sqlite3")
        var bytes = [UInt8](try Data(contentsOf: file))
        for offset in 4_096..<min(bytes.count, 8_192) { bytes[offset] = 0x5A }
        try Data(bytes).write(to: file)
        let damaged = try quire.run(["db", "check", "shop"])
        #expect(
            damaged.status == 1 && damaged.errors.hasPrefix("Error: ") && !damaged.errors.contains("Fatal"),
            "\(damaged.errors)")
    }

    @Test func importAndExportJSONLines() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "create", "people.quire", "--collection", "crm.people"])
        let lines = [
            #"{"_id":"ada","age":36,"score":1.0}"#, #"{"_id":"bob","tags":["x",null,true]}"#,
            #"{"_id":"cy","n":{"deep":[1,2.5]}}"#,
        ]
        _ = try fixture.scratch.write(lines.reversed().joined(separator: "\n") + "\n\n", to: "people.jsonl")
        #expect(
            try quire.succeed([
                "db", "import", "people", "people.jsonl", "--collection", "crm.people", "--batch-size", "2",
            ])
                == "Imported 3 documents and 0 blobs from people.jsonl\n")
        let dataset = try quire.run(["db", "export", "people", "people-data"])
        #expect(dataset.status == 0 && dataset.errors.isEmpty, "no progress bar without a terminal: \(dataset.errors)")
        #expect(dataset.output == "Exported 3 documents in 2 collections and 0 blobs to people-data\n")
        let exported = try quire.succeed([
            "db", "export", "people", "-", "--format", "jsonl", "--collection", "crm.people",
        ])
        #expect(exported == lines.joined(separator: "\n") + "\n")
        _ = try quire.succeed([
            "db", "export", "people", "out.jsonl", "--format", "jsonl", "--collection", "crm.people",
        ])
        #expect(try String(contentsOf: fixture.scratch.file("out.jsonl"), encoding: .utf8) == exported)

        _ = try fixture.scratch.write(#"{"_id":"ok"}"# + "\n" + #"{"_id": "broken", "#, to: "bad.jsonl")
        let bad = try quire.run(["db", "import", "people", "bad.jsonl", "--collection", "crm.people"])
        #expect(bad.status == 1 && bad.errors.hasPrefix("Error: bad.jsonl line 2 is not valid JSON"), "\(bad.errors)")
        _ = try fixture.scratch.write(#"{"name":"no id"}"#, to: "noid.jsonl")
        #expect(
            try quire.run(["db", "import", "people", "noid.jsonl"]).errors
                == "Error: noid.jsonl line 1 has no \"_id\" string (nothing was saved in _default._default).\n")
    }

    /// Bad input of every kind: one sentence on standard error naming the fault, nothing on
    /// standard output, exit status 1.
    static let refusals: [(arguments: [String], says: String)] = [
        (["db", "ls", "nowhere"], "No database 'nowhere' in "),
        (["db", "info", "missing.quire"], "No database 'missing' in "),
        (["db", "put", "shop", "p", #"{"name": "#], "The body for 'p' is not valid JSON: "),
        (["db", "put", "shop", "p", "[1, 2]"], "The body for 'p' is not a JSON object."),
        (["db", "put", "shop", "p", "@no-such-file.json"], "Cannot read the file no-such-file.json."),
        (["db", "query", "shop", "SELEKT * FROM _"], "The query is not valid SQL++: "),
        (["db", "query", "shop", "SELECT * FROM nowhere.at_all"], "The query is not valid SQL++: "),
        (
            ["db", "ls", "shop", "no.such"],
            "Database 'shop' has no collection 'no.such' (it has: _default._default, store.products)."
        ),
        (["db", "cat", "shop", "x", "-c", "elsewhere"], "Database 'shop' has no collection '_default.elsewhere'"),
        (["db", "cat", "shop", "ghost"], "_default._default has no document 'ghost'."),
        (["db", "rm", "shop", "ghost", "--purge"], "_default._default has no document 'ghost'."),
        (["db", "export", "shop", "out", "--collection", "no.such"], "has no collection 'no.such'"),
        (["db", "import", "shop", "no-such-folder"], "No dataset folder or JSON Lines file at no-such-folder."),
        (["db", "push", "shop", "http://127.0.0.1:9/shop", "--collection", "no.such"], "has no collection 'no.such'"),
    ]

    @Test(arguments: refusals.indices)
    func refusesBadInputInOneSentence(index: Int) throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        _ = try fixture.quire.succeed(["db", "create", "shop", "--collection", "store.products"])
        let (arguments, says) = Self.refusals[index]
        let outcome = try fixture.quire.run(arguments)
        #expect(outcome.status == 1, "\(arguments): \(outcome.status) \(outcome.errors)")
        #expect(outcome.output.isEmpty, "\(arguments): \(outcome.output)")
        #expect(outcome.errors.hasPrefix("Error: ") && outcome.errors.contains(says), "\(arguments): \(outcome.errors)")
        #expect(
            outcome.errors.filter { $0 == "\n" }.count == 1 && outcome.errors.hasSuffix(".\n"),
            "\(arguments): \(outcome.errors)")
        #expect(!FileManager.default.fileExists(atPath: fixture.scratch.file("nowhere.quire").path))
    }

    /// A command line the tool does not understand exits with 64 and prints the usage.
    @Test(arguments: [
        ["db", "put", "shop", "p"], ["db", "ls", "shop", "--limit", "-1"], ["db", "expire", "shop", "p"],
        ["db", "ls", "shop", "--sort", "size"], ["db", "push", "shop", "not a url"],
        ["db", "export", "shop", "-", "--format", "xml"],
    ])
    func refusesAMalformedCommandLineWithUsage(arguments: [String]) throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let outcome = try fixture.quire.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.errors)")
        #expect(
            outcome.errors.hasPrefix("Error: ") && outcome.errors.contains("Usage: quire db"),
            "\(arguments): \(outcome.errors)")
    }

    /// Every subcommand's help carries an example, and the completion scripts generate.
    @Test func everySubcommandHasAnExampleAndCompletionScriptsGenerate() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let subcommands =
            [
                ["db"], ["conform"], ["serve"], ["fixture"],
                ["fixture", "generate"], ["fixture", "build"], ["fixture", "verify"], ["fixture", "inspect"],
                ["fixture", "install"],
                ["fixture", "doctor"], ["testserver"],
            ]
            + [
                "create", "info", "check", "compact", "reindex", "cp", "mkcoll", "rmcoll", "lscoll", "ls", "cat",
                "revs", "put", "rm", "expire", "query", "mkindex", "rmindex", "export", "import", "push", "pull",
            ].map { ["db", $0] }
        for subcommand in subcommands {
            let help = try fixture.quire.succeed(subcommand + ["--help"])
            let name = "quire \(subcommand.joined(separator: " "))"
            #expect(help.contains("Example:\n  \(name)"), "\(name) --help:\n\(help)")
            // Each example is one unwrapped line, so it can be copied as it is.
            let examples = help.components(separatedBy: "Example:\n").last?.components(separatedBy: "\n\n").first ?? ""
            #expect(examples.split(separator: "\n").allSatisfy { $0.hasPrefix("  quire ") }, "\(name) --help:\n\(help)")
        }
        for shell in ["bash", "zsh", "fish"] {
            let script = try fixture.quire.succeed(["--generate-completion-script", shell])
            #expect(script.contains("mkindex") && script.contains("fixture"), "\(shell)")
        }
    }
}
