import Foundation
import QuireTestSupport
import Testing

/// Shell completion of `quire db` command lines: collections of the database a line names
/// (asked of the executable the way the generated scripts ask it), languages, folders.
@Suite(.offCooperativePool) struct DbCompletionTests {
    @Test func collectionsOfTheNamedDatabaseComplete() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        _ = try quire.succeed(["db", "create", "shop.quire", "-c", "store.products"])
        _ = try quire.succeed(["db", "mkcoll", "shop.quire", "store.orders", "notes"])

        /// What the scripts run for `quire db SUBCOMMAND DATABASE <option> WORD` with the
        /// cursor at the end of WORD.
        func complete(_ subcommand: String, _ option: String, _ word: String, database: String = "shop.quire") throws
            -> [String]
        {
            let line = ["quire", "db", subcommand, database, option == "positional@1" ? word : option, word]
            let words = option == "positional@1" ? Array(line.dropLast()) : line
            let output = try quire.succeed(
                ["---completion", "db", subcommand, "--", option, "\(words.count - 1)", "\(word.utf8.count)"] + words)
            return output.split(separator: "\n").map(String.init)
        }
        #expect(try complete("ls", "--collection", "") == ["_default", "notes", "store.orders", "store.products"])
        #expect(try complete("cat", "--collection", "store.p") == ["store.products"])
        #expect(try complete("rmcoll", "positional@1", "no") == ["notes"])
        #expect(try complete("ls", "--collection", "", database: "absent.quire").isEmpty)
    }

    @Test func theScriptsCompleteLanguagesAndDatabaseFolders() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let bash = try quire.succeed(["--generate-completion-script", "bash"])
        #expect(bash.contains("---completion db ls -- --collection"))
        #expect(bash.contains("'none'"), "mkindex --language lists its languages and none")
        let zsh = try quire.succeed(["--generate-completion-script", "zsh"])
        #expect(zsh.contains("_files -/"), "a database argument completes folders")
    }
}
