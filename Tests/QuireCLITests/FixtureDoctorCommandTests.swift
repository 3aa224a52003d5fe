import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures
import QuireFixturesTestSupport
import QuireListener
import QuireSync
import QuireTestSupport
import Testing

/// The `quire fixture doctor` executable: it exits 0 when the first replication will resume
/// from a stored checkpoint and 1 when it will start over, naming the input that differs, for
/// a fixture archive and for an installed database folder alike.
///
/// One fixture is built by pulling from a loopback listener with channel `all`; the listener
/// is stopped before the doctor runs, which never contacts the server.
@Suite(.serialized, .offCooperativePool) struct FixtureDoctorCommandTests {
    /// A built fixture, its installed copy, and the URL it was pulled from.
    private struct Built {
        let scratch: ScratchFolder
        let archive: URL
        let installed: URL
        let url: URL
        let port: Int
    }

    private func build() async throws -> Built {
        let scratch = try ScratchFolder()
        let server = try Database(
            name: "server", config: DatabaseConfiguration(directory: try scratch.folder("server").path))
        defer { try? server.close() }
        let collection = try server.defaultCollection()
        for number in 1...5 {
            try collection.save(document: MutableDocument(id: "d\(number)", data: ["n": number, "channels": ["all"]]))
        }
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(collections: [collection], port: 0, networkInterface: "127.0.0.1"))
        try await listener.start()
        let port = Int(try #require(listener.port))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/server"))
        let text = "name: pulled\nsource:\n  remote: {url: \"\(url.absoluteString)\", channels: [all]}\n"
        let recipe = try FixtureRecipe.parse(Data(text.utf8), fileName: "r.yaml", baseFolder: scratch.url)
        let output = scratch.url.appendingPathComponent("out")
        let built: FixtureBuildResult
        do {
            built = try await onOwnThread {
                try withArchiveLock { try FixtureBuilder(recipe: recipe).build(into: output) }
            }
        } catch {
            await listener.stop()
            throw error
        }
        await listener.stop()
        #expect(built.manifest.checkpoints?.count == 1)

        let apps = try scratch.folder("apps")
        _ = try withArchiveLock {
            try FixtureInstaller.install(
                archive: built.archiveURL, name: "app", config: DatabaseConfiguration(directory: apps.path),
                ifAbsent: false,
                temporaryDirectory: apps)
        }
        return Built(
            scratch: scratch, archive: built.archiveURL, installed: apps.appendingPathComponent("app.quire"), url: url,
            port: port)
    }

    @Test func aFixtureArchiveWithItsOwnSettingsResumes() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        let result = try run(
            quire, [built.archive.path, "--url", built.url.absoluteString, "--channels", "all"], built)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("will resume from checkpoint"), "\(result.output)")
        #expect(!result.output.contains("NOT"))
    }

    @Test func anInstalledDatabaseFolderWithItsOwnSettingsResumes() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        #expect(FileManager.default.fileExists(atPath: built.installed.appendingPathComponent("db.sqlite3").path))
        let result = try run(
            quire, [built.installed.path, "--url", built.url.absoluteString, "--channels", "all"], built)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("will resume from checkpoint"), "\(result.output)")
        // Installed with Database.copy: the checkpoint was made with the fixture's UUID.
        #expect(result.output.contains("previous UUID"), "\(result.output)")
    }

    @Test func otherChannelsAreNamedWhetherGivenWithCommasOrSpaces() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        let url = built.url.absoluteString
        let commas = try run(quire, [built.archive.path, "--url", url, "--channels", "all,more"], built)
        let spaces = try run(quire, [built.archive.path, "--url", url, "--channels", "all", "more"], built)
        let both = try run(quire, [built.installed.path, "--channels", "all, more", "--url", url], built)
        for result in [commas, spaces, both] {
            #expect(result.status == 1, "\(result.output)")
            #expect(result.output.contains("will NOT resume"), "\(result.output)")
            #expect(
                result.output.contains("  - channels: [all, more], the checkpoint was made with [all]"),
                "\(result.output)")
            #expect(!result.output.contains("port:") && !result.output.contains("path:"), "\(result.output)")
        }
        // No channels at all differs too.
        let none = try run(quire, [built.archive.path, "--url", url], built)
        #expect(none.status == 1, "\(none.output)")
        #expect(none.output.contains("  - channels:"), "\(none.output)")
    }

    @Test func documentIDsAreReadFromCommaOrSpaceLists() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        let base = [built.archive.path, "--url", built.url.absoluteString, "--channels", "all"]
        let commas = try run(quire, base + ["--doc-ids", "d1,d2"], built)
        let spaces = try run(quire, base + ["--doc-ids", "d1", "d2"], built)
        #expect(commas.status == 1, "\(commas.output)")
        #expect(spaces.status == 1, "\(spaces.output)")
        #expect(commas.output.contains("  - document IDs:"), "\(commas.output)")
        #expect(commas.output.contains("d1") && commas.output.contains("d2"), "\(commas.output)")
        #expect(commas.output == spaces.output)
    }

    @Test func anotherPortOrPathIsNamed() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        let otherPort = built.port == 65_000 ? 65_001 : 65_000
        let port = try run(
            quire, [built.installed.path, "--url", "http://127.0.0.1:\(otherPort)/server", "--channels", "all"], built)
        #expect(port.status == 1, "\(port.output)")
        #expect(
            port.output.contains("  - port: \(otherPort), the checkpoint was made with \(built.port)"), "\(port.output)"
        )
        #expect(!port.output.contains("path:"), "\(port.output)")

        let path = try run(
            quire, [built.archive.path, "--url", "http://127.0.0.1:\(built.port)/mirror", "--channels", "all"], built)
        #expect(path.status == 1, "\(path.output)")
        #expect(path.output.contains("  - path: '/mirror', the checkpoint was made with '/server'"), "\(path.output)")
        #expect(!path.output.contains("port:"), "\(path.output)")
    }

    @Test func badArgumentsAreRefusedWithAClearError() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let built = try await build()
        defer { built.scratch.cleanUp() }
        let url = built.url.absoluteString
        let cases: [(arguments: [String], fragment: String)] = [
            ([built.archive.path, "--url", "not a url"], "--url 'not a url' is not a URL"),
            (
                [built.archive.path, "--url", url, "--filter-param", "owner"],
                "--filter-param 'owner' must be written name=value"
            ),
            ([built.scratch.file("absent.zip").path, "--url", url], "Nothing at"),
            ([built.archive.path], "--url"),
            ([built.archive.path, "--url", url, "--no-such-option"], "--no-such-option"),
        ]
        for (arguments, fragment) in cases {
            let result = try run(quire, arguments, built)
            #expect(result.status == 64, "\(arguments): \(result.output)")
            #expect(result.output.contains(fragment), "\(arguments): \(result.output)")
            #expect(!result.output.contains("Fatal error"), "\(arguments): \(result.output)")
        }
        let notAnArchive = try built.scratch.write("plain text\n", to: "notes.zip")
        let result = try run(quire, [notAnArchive.path, "--url", url], built)
        // Not 1, which would read as "it will start over".
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("is not a readable archive"), "\(result.output)")
    }

    /// Runs `quire fixture doctor ARGUMENTS` with its temporary folder inside the scratch
    /// folder; returns its exit status and its output and errors together.
    private func run(_ executable: URL, _ arguments: [String], _ built: Built) throws -> (status: Int32, output: String)
    {
        try runCommand(
            executable, ["fixture", "doctor"] + arguments, temporary: try built.scratch.folder("tmp"),
            in: built.scratch.url)
    }
}
