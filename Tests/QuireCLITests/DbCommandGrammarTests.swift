import Foundation
import Quire
import QuireTestSupport
import Testing

/// One grammar for every `quire db` subcommand: `-c/--collection` wherever a collection is
/// named, `--json` everywhere with one shape per command, the same exit status for the same
/// failure, bad values refused with the subcommand's own usage.
@Suite(.offCooperativePool) struct DbCommandGrammarTests {
    typealias Fixture = DbCommandTests.Fixture

    /// A database `shop` with store.products holding p1 and p2.
    static func shop() throws -> Fixture {
        let fixture = try Fixture()
        _ = try fixture.quire.succeed(["db", "create", "shop", "-c", "store.products"])
        for id in ["p1", "p2"] {
            _ = try fixture.quire.succeed([
                "db", "put", "shop", id, #"{"name":"\#(id)","desc":"x"}"#, "-c", "store.products",
            ])
        }
        return fixture
    }

    @Test func everyCollectionOptionIsDashCAndEveryCommandSpeaksJSON() throws {
        let fixture = try Self.shop()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        let c = ["-c", "store.products"]
        // Each command with -c and --json prints JSON (one value a line).
        let commands: [[String]] = [
            ["db", "mkcoll", "shop", "store.extra", "--json"],
            ["db", "lscoll", "shop", "--json"],
            ["db", "put", "shop", "p3", #"{"name":"p3"}"#, "--json"] + c,
            ["db", "cat", "shop", "p3", "--json"] + c,
            ["db", "revs", "shop", "p3", "--json"] + c,
            ["db", "ls", "shop", "--json"] + c,
            ["db", "expire", "shop", "p3", "--in", "1h", "--json"] + c,
            ["db", "mkindex", "shop", "by_name", "--value", "name", "--json"] + c,
            ["db", "info", "shop", "index", "by_name", "--json"] + c,
            ["db", "query", "shop", "SELECT name FROM store.products", "--json"],
            ["db", "rmindex", "shop", "by_name", "--json"] + c,
            ["db", "rm", "shop", "p3", "--json"] + c,
            ["db", "export", "shop", "out.jsonl", "--format", "jsonl", "--json"] + c,
            ["db", "create", "other", "--json"] + c,
            ["db", "import", "other", "out.jsonl", "--json"] + c,
            ["db", "rmcoll", "shop", "store.extra", "--json"],
            ["db", "cp", "shop", "copy.quire", "--json"],
            ["db", "info", "shop", "--json"], ["db", "check", "shop", "--json"],
        ]
        for words in commands {
            let output = try quire.succeed(words)
            #expect(!output.isEmpty, "\(words)")
            for line in output.split(separator: "\n") {
                #expect(throws: Never.self, "\(words): \(line)") { try JSONReader.parse(String(line)) }
            }
        }
        let imported = try DbCommandTests.lines(
            try quire.succeed(["db", "ls", "other", "-c", "store.products", "--json"]))
        #expect(imported.map { $0["id"] } == ["p1", "p2"])
        // The collection as ls's second argument still works.
        #expect(try quire.succeed(["db", "ls", "shop", "store.products"]).contains("p2"))
        #expect(!(try quire.succeed(["db", "ls", "--help"]).contains("positional")))
    }

    /// `ls --json` has the same keys whatever the options: id, rev, sequence, deleted (and
    /// body, only asked for with --body).
    @Test func lsJSONHasOneShape() throws {
        let fixture = try Self.shop()
        defer { fixture.scratch.cleanUp() }
        let quire = fixture.quire
        _ = try quire.succeed(["db", "rm", "shop", "p2", "-c", "store.products"])
        let keys = ["deleted", "id", "rev", "sequence"]
        for options in [[], ["--sort", "seq"], ["--deleted"], ["--deleted", "--sort", "seq"]] {
            let lines = try DbCommandTests.lines(
                try quire.succeed(["db", "ls", "shop", "-c", "store.products", "--json"] + options))
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(line.objectValue.map { Array($0.keys).sorted() } == keys, "\(options): \(line)")
            }
        }
        let withBody = try DbCommandTests.lines(
            try quire.succeed(["db", "ls", "shop", "-c", "store.products", "--json", "--deleted", "--body"]))
        #expect(withBody.map { $0["body"]?["name"] } == ["p1", nil] && withBody[1]["body"] == .null)
        #expect(withBody[0]["sequence"] == 1 && withBody[1]["deleted"] == true)
    }

    /// The same failure exits the same way in every subcommand: a missing database is status 1
    /// with one sentence (the README's rule), whichever command met it.
    @Test(arguments: [["info"], ["ls"], ["lscoll"], ["check"], ["cat", "x"], ["query", "SELECT 1"]])
    func aMissingDatabaseIsStatusOneEverywhere(command: [String]) throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        let words = ["db", command[0], "nosuch"] + command.dropFirst()
        let outcome = try fixture.quire.run(words)
        #expect(outcome.status == 1, "\(words): \(outcome.errors)")
        #expect(outcome.errors.hasPrefix("Error: No database 'nosuch' in "), "\(words): \(outcome.errors)")
        #expect(outcome.errors.contains("quire db create nosuch"))
    }

    /// A path to something that is not a database gets no advice to create it there.
    @Test func aFileIsNotOfferedToBeCreated() throws {
        let fixture = try Fixture()
        defer { fixture.scratch.cleanUp() }
        _ = try fixture.scratch.write("not a database", to: "notes.txt")
        for argument in ["/etc/passwd", "notes.txt", "some/where/db"] {
            let outcome = try fixture.quire.run(["db", "info", argument])
            #expect(outcome.status == 1, "\(argument)")
            #expect(outcome.errors.hasPrefix("Error: '\(argument)' is not a database"), "\(outcome.errors)")
            #expect(!outcome.errors.contains("quire db create"), "\(outcome.errors)")
        }
    }

    /// A bad --param, duration or date prints the usage of the subcommand it was given to.
    @Test(arguments: [
        (["db", "query", "shop", "SELECT 1", "--param", "novalue"], "quire db query"),
        (["db", "query", "shop", "SELECT 1", "--limit", "-2"], "quire db query"),
        (["db", "expire", "shop", "p1", "--in", "soon"], "quire db expire"),
        (["db", "expire", "shop", "p1", "tomorrow"], "quire db expire"),
        (["db", "mkindex", "shop", "t", "--fts", "name", "--language", "elbonian"], "quire db mkindex"),
    ])
    func badValuesPrintTheSubcommandsUsage(arguments: [String], usage: String) throws {
        let fixture = try Self.shop()
        defer { fixture.scratch.cleanUp() }
        let outcome = try fixture.quire.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.errors)")
        #expect(outcome.errors.contains("Usage: \(usage) "), "\(arguments): \(outcome.errors)")
    }

    /// A `$name` the query uses without a --param is an error, not a query that matches nothing;
    /// a --param the query does not use is one too.
    @Test func unboundAndUnusedParametersAreRefused() throws {
        let fixture = try Self.shop()
        defer { fixture.scratch.cleanUp() }
        let select = "SELECT name FROM store.products WHERE name = $n"
        let unbound = try fixture.quire.run(["db", "query", "shop", select])
        #expect(unbound.status == 1 && unbound.output.isEmpty)
        #expect(
            unbound.errors == "Error: The query uses $n with no value: give --param n=VALUE.\n", "\(unbound.errors)")
        let unused = try fixture.quire.run(["db", "query", "shop", select, "--param", "n=p1", "--param", "m=2"])
        #expect(unused.status == 1 && unused.errors.contains("no parameter $m"), "\(unused.errors)")
        #expect(
            try fixture.quire.succeed(["db", "query", "shop", select, "--param", "n=p1", "--json"]) == #"{"name":"p1"}"#
                + "\n")
        // --explain shows the plan without values.
        #expect(try fixture.quire.succeed(["db", "query", "shop", select, "--explain"]).contains("SELECT"))
    }

    /// `--language` takes only what the build stems, and says which those are; a keyword
    /// given as a property gets a hint to quote it.
    @Test func indexLanguagesAndKeywordHints() throws {
        let fixture = try Self.shop()
        defer { fixture.scratch.cleanUp() }
        let refused = try fixture.quire.run([
            "db", "mkindex", "shop", "t", "--fts", "name", "--language", "elbonian", "-c", "store.products",
        ])
        let languages = FullTextIndexConfiguration.stemmedLanguages
        #expect(refused.errors.contains("--language 'elbonian' is not a language Quire can stem"), "\(refused.errors)")
        #expect(languages.isEmpty || refused.errors.contains(languages.joined(separator: ", ")), "\(refused.errors)")
        for language in languages + ["none"] {
            _ = try fixture.quire.succeed([
                "db", "mkindex", "shop", "t_\(language)", "--fts", "name", "--language", language, "-c",
                "store.products",
            ])
        }
        let keyword = try fixture.quire.run(["db", "mkindex", "shop", "d", "--fts", "desc", "-c", "store.products"])
        #expect(
            keyword.status == 1 && keyword.errors.contains("quote it with backquotes, as '`desc`'"), "\(keyword.errors)"
        )
        _ = try fixture.quire.succeed(["db", "mkindex", "shop", "d", "--fts", "`desc`", "-c", "store.products"])
    }
}
