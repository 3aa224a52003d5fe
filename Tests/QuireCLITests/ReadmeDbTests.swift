import Foundation
import Quire
import QuireSync
import Testing

/// The README's "Working with a database from the shell" section, run as written: every
/// command of its first `sh` block through the built executable, in order, the push against
/// a listener in the test process standing in for the URL the README names.
@Suite struct ReadmeDbTests {
    @Test func theShellSectionRunsAsWritten() async throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"), directory: scratch.url)
        let commands = try Self.commands()
        #expect(commands.count >= 15)
        #expect(Set(commands.compactMap { $0.dropFirst().first }).isSuperset(of: ["create", "put", "ls", "cat", "query", "export", "import", "push"]))

        let served = try await DbReplicationCommandTests.Served(name: "shop", in: scratch.file("server"))
        var outputs: [String] = []
        for words in commands {
            let arguments = words.map { $0.replacingOccurrences(of: "http://127.0.0.1:4984", with: "http://127.0.0.1:\(served.listener.port ?? 0)") }
            outputs.append(try quire.succeed(arguments))
        }
        let joined = outputs.joined()
        let query = try #require(outputs.indices.first { commands[$0].contains("--param") })
        #expect(outputs[query].contains("Chair") && outputs[query].contains("Lamp") && !outputs[query].contains("Desk"), "\(outputs[query])")
        #expect(joined.contains("by_price"))
        let products = try #require(try served.database.collection(name: "products", scope: "store"))
        #expect(try products.liveDocuments().map(\.id) == ["p1", "p3"])
        #expect(try products.revisionInfo(id: "p2")?.isDeleted == true)
        let copy = try quire.succeed(["db", "ls", "copy", "store.products", "--body", "--json"])
        let original = try quire.succeed(["db", "ls", "shop", "store.products", "--body", "--json"])
        #expect(copy == original && copy.split(separator: "\n").count == 2)
        await served.stop()
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
