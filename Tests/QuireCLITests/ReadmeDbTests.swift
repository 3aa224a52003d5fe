import Foundation
import Quire
import QuireTestSupport
import Testing

/// The README's "Working with a database from the shell" section, run as written: every
/// command of its first `sh` block through the built executable, in order, the push against
/// a listener in the test process standing in for the URL the README names.
@Suite(.offCooperativePool) struct ReadmeDbTests {
    @Test func theShellSectionRunsAsWritten() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let commands = try Self.commands()
        #expect(commands.count >= 15)
        #expect(
            Set(commands.compactMap { $0.dropFirst().first }).isSuperset(of: [
                "create", "put", "ls", "cat", "query", "export", "import", "push",
            ]))

        let served = try DbReplicationCommandTests.Served(quire, name: "shop")
        defer { served.stop() }
        var outputs: [String] = []
        for words in commands {
            let arguments = words.map { $0.replacingOccurrences(of: "http://127.0.0.1:4984/shop", with: served.url) }
            outputs.append(try quire.succeed(arguments))
        }
        served.stop()
        let joined = outputs.joined()
        let query = try #require(outputs.indices.first { commands[$0].contains("--param") })
        #expect(
            outputs[query].contains("Chair") && outputs[query].contains("Lamp") && !outputs[query].contains("Desk"),
            "\(outputs[query])")
        #expect(joined.contains("by_price"))
        // What the push sent: the live documents, and the deletion.
        let remote = try quire.succeed(["db", "ls", "server/shop.quire", "store.products", "--deleted", "--json"])
        let entries = try remote.split(separator: "\n").map { try JSONReader.parse(String($0)) }
        #expect(
            entries.map { $0["id"] } == ["p1", "p2", "p3"] && entries.map { $0["deleted"] } == [false, true, false])
        // The import gave the same documents and bodies (under sequences of its own).
        func documents(_ database: String) throws -> [[JSONValue?]] {
            try quire.succeed(["db", "ls", database, "-c", "store.products", "--body", "--json"]).split(
                separator: "\n"
            ).map { line in
                let entry = try JSONReader.parse(String(line))
                return [entry["id"], entry["body"]]
            }
        }
        #expect(try documents("copy") == documents("shop") && documents("copy").count == 2)
    }

    /// The `quire` commands of the section's first `sh` block, split into words as a shell
    /// would (quotes removed, `# comments` dropped), without the leading `quire`.
    static func commands() throws -> [[String]] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        guard let section = text.range(of: "## Working with a database from the shell\n"),
            let start = text.range(of: "```sh\n", range: section.upperBound..<text.endIndex),
            let end = text.range(of: "```\n", range: start.upperBound..<text.endIndex)
        else {
            throw QuireError(.notFound, "README.md has no shell block under 'Working with a database from the shell'")
        }
        return try text[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let words = try Self.words(String(line))
            guard words.first == "quire" else { throw QuireError(.invalidParameter, "not a quire command: \(line)") }
            return Array(words.dropFirst())
        }
    }

    /// `line` split into words: single and double quotes group and are removed, an unquoted
    /// `#` after a space starts a comment.
    static func words(_ line: String) throws -> [String] {
        var words: [String] = []
        var current: String?
        var quote: Character?
        var previous: Character = " "
        for character in line {
            defer { previous = character }
            if let open = quote {
                if character == open { quote = nil } else { current?.append(character) }
                continue
            }
            switch character {
            case "'", "\"":
                quote = character
                current = current ?? ""
            case "#" where previous == " ":
                if let current { words.append(current) }
                return words
            case " ":
                if let word = current { words.append(word) }
                current = nil
            default:
                current = (current ?? "") + String(character)
            }
        }
        guard quote == nil else { throw QuireError(.invalidParameter, "unclosed quote in: \(line)") }
        if let current { words.append(current) }
        return words
    }
}
