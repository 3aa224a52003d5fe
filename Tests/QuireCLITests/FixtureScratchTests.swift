import Foundation
import Quire
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

#if canImport(Glibc)
    import Glibc
#endif

/// The `quire` executable killed with SIGKILL at random points of `fixture install` and
/// `fixture build`: whatever was installed or built is whole, and the next run removes every
/// piece of scratch the killed ones left. Two installs sharing a temporary folder both succeed.
///
/// Each kill waits until the child's scratch exists, then a random time up to how long the rest
/// of an uninterrupted run took, so kills land while the archive is extracted, checked, given
/// its identity and renamed (or, for a build, while documents load, indexes build, the file is
/// compacted and the archive written). `QUIRE_KILL_RUNS` sets the number of kills (20 each by
/// default).
@Suite(.serialized, .offCooperativePool) struct FixtureScratchTests {
    static let runs = Int(ProcessInfo.processInfo.environment["QUIRE_KILL_RUNS"] ?? "") ?? 20

    /// A scratch folder with a travel dataset of `count` documents, its recipe and its archive.
    private struct Setup {
        let scratch: ScratchFolder
        let recipe: URL
        let archive: URL
        /// Documents per collection in the fixture.
        let counts: [String: Int]

        init(count: Int) throws {
            let scratch = try ScratchFolder()
            self.scratch = scratch
            let (recipe, result) = try withArchiveLock { () throws -> (URL, FixtureBuildResult) in
                try DatasetGenerator(kind: .travel, count: count, seed: 11).write(to: scratch.file("data/travel"))
                let parsed = try SampleFixture.travelRecipe(in: scratch)
                return (
                    scratch.file("recipes/travel.yaml"),
                    try FixtureBuilder(recipe: parsed).build(into: scratch.file("fixture"))
                )
            }
            self.recipe = recipe
            archive = result.archiveURL
            counts = Dictionary(uniqueKeysWithValues: result.manifest.collections.map { ($0.name, $0.documentCount) })
        }
    }

    private static func launch(_ arguments: [String], temporary: URL, in directory: URL) throws -> SpawnedProcess {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary.path
        environment["SOURCE_DATE_EPOCH"] = "946684800"
        return try SpawnedProcess(
            executable: quire, arguments: arguments, directory: directory, environment: environment)
    }

    /// Names directly in `folder`.
    private static func names(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    // The waits below sleep as tasks rather than block: these tests wait on children for
    // seconds, and a cooperative thread held that long starves the replication tests running
    // beside them (two cores, two such threads).

    /// Waits until `appeared` says the child's scratch exists, or the child has ended; returns
    /// whether it appeared. The bound only stops a hang.
    private static func waitForScratch(_ process: SpawnedProcess, _ appeared: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, Date() < deadline {
            if appeared() { return true }
            try? await Task.sleep(for: .microseconds(100))
        }
        return false
    }

    /// Waits for the child to end.
    private static func waitForExit(_ process: SpawnedProcess) async {
        while process.isRunning { try? await Task.sleep(for: .milliseconds(1)) }
        process.waitUntilExit()
    }

    /// Runs `arguments` to the end, and returns the seconds its scratch existed (from appearing
    /// to gone, or to exit if it stays). Not until exit: a sanitized child spends far longer
    /// ending than installing, and kills spread over its exit all land after the scratch went.
    private static func calibrate(
        _ arguments: [String], temporary: URL, in directory: URL, scratch appeared: () -> Bool
    ) async throws -> Double {
        let process = try launch(arguments, temporary: temporary, in: directory)
        _ = await waitForScratch(process, appeared)
        let start = Date()
        while process.isRunning, appeared() { try? await Task.sleep(for: .microseconds(100)) }
        let lifetime = Date().timeIntervalSince(start)
        await waitForExit(process)
        #expect(process.terminationStatus == 0, "\(arguments) failed")
        return max(lifetime, 0.001)
    }

    /// Runs `arguments`, kills it at a random point after its scratch appears (within `window`
    /// seconds), and says whether the kill landed before the child ended by itself.
    private static func runAndKill(
        _ arguments: [String], temporary: URL, in directory: URL, window: Double, random: inout SeededGenerator,
        scratch appeared: () -> Bool
    ) async throws -> Bool {
        let process = try launch(arguments, temporary: temporary, in: directory)
        _ = await waitForScratch(process, appeared)
        try? await Task.sleep(for: .microseconds(Int(Double(random.next() % 1_000) / 1_000 * window * 1_000_000)))
        kill(process.processIdentifier, SIGKILL)
        await waitForExit(process)
        if process.terminationReason == .exit {
            #expect(process.terminationStatus == 0, "\(arguments) failed by itself")
            return false
        }
        return true
    }

    /// The installed database holds every document of the fixture and passes SQLite's check.
    private static func expectComplete(_ directory: URL, name: String, counts: [String: Int], _ context: String) throws
    {
        let database = try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
        defer { try? database.close() }
        #expect(try database.read { try $0.scalarText("PRAGMA integrity_check") } == "ok", "\(context)")
        var found: [String: Int] = [:]
        for scope in try database.scopes() {
            for collection in try scope.collections() where counts[collection.fullName] != nil {
                found[collection.fullName] = Int(collection.count)
            }
        }
        #expect(found == counts, "\(context)")
    }

    @Test func killedInstallsLeaveNoScratchForTheNextOne() async throws {
        let setup = try Setup(count: 1_000)
        defer { setup.scratch.cleanUp() }
        let temporary = try setup.scratch.folder("tmp")
        let apps = setup.scratch.file("apps")
        let arguments = [
            "fixture", "install", setup.archive.path, "--name", "travel", "--directory", apps.path, "--if-absent",
        ]
        let installed = apps.appendingPathComponent("travel.quire")
        let appeared = { !Self.names(temporary).isEmpty }

        let window = try await Self.calibrate(arguments, temporary: temporary, in: setup.scratch.url, scratch: appeared)
        try FileManager.default.removeItem(at: installed)
        var random = SeededGenerator(seed: 0xC0FFEE)
        var killed = 0
        var leftBehind = 0
        // On a loaded machine a run can end before the poll sees its scratch; up to three times
        // the runs are made until at least one kill lands while scratch exists.
        var run = 0
        while run < Self.runs || (leftBehind == 0 && run < 3 * Self.runs) {
            defer { run += 1 }
            let wasKilled = try await Self.runAndKill(
                arguments, temporary: temporary, in: setup.scratch.url, window: window, random: &random,
                scratch: appeared)
            if wasKilled { killed += 1 }
            let scratch = Self.names(temporary) + Self.names(apps).filter { $0.hasPrefix(".") }
            if !scratch.isEmpty { leftBehind += 1 }
            // Absent or whole, never partial; whole ones go, so the next run installs again.
            if FileManager.default.fileExists(atPath: installed.path) {
                try Self.expectComplete(apps, name: "travel", counts: setup.counts, "run \(run)")
                try FileManager.default.removeItem(at: installed)
            }
        }
        let final = try Self.launch(arguments, temporary: temporary, in: setup.scratch.url)
        await Self.waitForExit(final)
        #expect(final.terminationStatus == 0)
        #expect(Self.names(temporary).isEmpty, "left in the temporary folder: \(Self.names(temporary))")
        #expect(Self.names(apps) == ["travel.quire"], "left beside the database: \(Self.names(apps))")
        try Self.expectComplete(apps, name: "travel", counts: setup.counts, "after the last install")
        #expect(leftBehind > 0, "no kill landed while scratch existed; the test proved nothing")
        print(
            "fixture install: \(run) runs, \(killed) killed, \(leftBehind) left scratch, all removed by the next install"
        )
    }

    @Test func killedBuildsLeaveNoScratchForTheNextOne() async throws {
        let setup = try Setup(count: 100)
        defer { setup.scratch.cleanUp() }
        let temporary = try setup.scratch.folder("tmp")
        let output = setup.scratch.file("out")
        let archive = output.appendingPathComponent("travel.quire.zip")
        let arguments = ["fixture", "build", setup.recipe.path, "-o", output.path]
        let appeared = { Self.names(output).contains { $0.hasPrefix(".") } }

        let window = try await Self.calibrate(arguments, temporary: temporary, in: setup.scratch.url, scratch: appeared)
        let reference = try Data(contentsOf: archive)
        var random = SeededGenerator(seed: 0xB111D)
        var killed = 0
        var leftBehind = 0
        var run = 0
        while run < Self.runs || (leftBehind == 0 && run < 3 * Self.runs) {
            defer { run += 1 }
            try? FileManager.default.removeItem(at: archive)
            let wasKilled = try await Self.runAndKill(
                arguments, temporary: temporary, in: setup.scratch.url, window: window, random: &random,
                scratch: appeared)
            if wasKilled { killed += 1 }
            if Self.names(output).contains(where: { $0.hasPrefix(".") }) { leftBehind += 1 }
            // The archive is there whole (byte for byte the uninterrupted build's) or not at all.
            if FileManager.default.fileExists(atPath: archive.path) {
                #expect(try Data(contentsOf: archive) == reference, "run \(run): a different archive was left")
            }
        }
        let final = try Self.launch(arguments, temporary: temporary, in: setup.scratch.url)
        await Self.waitForExit(final)
        #expect(final.terminationStatus == 0)
        #expect(Self.names(output) == ["travel.quire.zip"], "left in the output folder: \(Self.names(output))")
        #expect(Self.names(temporary).isEmpty)
        #expect(try Data(contentsOf: archive) == reference)
        let report = withArchiveLock { FixtureVerifier(archiveURL: archive).verify() }
        #expect(report.checks.filter { !$0.passed }.isEmpty, "\(report.checks.filter { !$0.passed })")
        #expect(leftBehind > 0, "no kill landed while scratch existed; the test proved nothing")
        print("fixture build: \(run) runs, \(killed) killed, \(leftBehind) left scratch, all removed by the next build")
    }

    @Test func concurrentInstallsSharingATemporaryFolderAllSucceed() async throws {
        let setup = try Setup(count: 100)
        defer { setup.scratch.cleanUp() }
        let temporary = try setup.scratch.folder("tmp")
        let apps = setup.scratch.file("apps")
        // What a killed install left: nobody holds it, so the next install removes it.
        let abandoned = try OwnedScratch.create(.folder, in: temporary, prefix: UnpackedFixture.installPrefix)
        try Data(count: 1 << 16).write(to: abandoned.url.appendingPathComponent("db.sqlite3"))
        abandoned.close()

        // Two installs of their own names, and two racing for one name with --if-absent.
        let runs = [["one"], ["two"], ["three", "--if-absent"], ["three", "--if-absent"]].map { extra in
            ["fixture", "install", setup.archive.path, "--directory", apps.path, "--name"] + extra
        }
        let processes = try runs.map { try Self.launch($0, temporary: temporary, in: setup.scratch.url) }
        for (process, arguments) in zip(processes, runs) {
            await Self.waitForExit(process)
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "\(arguments)")
        }
        #expect(Self.names(temporary).isEmpty, "\(Self.names(temporary))")
        #expect(Self.names(apps) == ["one.quire", "three.quire", "two.quire"])
        for name in ["one", "two", "three"] {
            try Self.expectComplete(apps, name: name, counts: setup.counts, name)
        }
    }

    @Test func anInstallLeavesTheScratchOfARunningInstallAlone() throws {
        let setup = try Setup(count: 4)
        defer { setup.scratch.cleanUp() }
        let temporary = try setup.scratch.folder("tmp")
        let running = try OwnedScratch.create(.folder, in: temporary, prefix: UnpackedFixture.installPrefix)
        defer { running.remove() }
        try Data("being extracted".utf8).write(to: running.url.appendingPathComponent("manifest.json"))
        let dead = try OwnedScratch.create(.folder, in: temporary, prefix: UnpackedFixture.installPrefix)
        dead.close()

        let outcome = try withArchiveLock {
            try FixtureInstaller.install(
                archive: setup.archive, name: "travel",
                config: DatabaseConfiguration(directory: setup.scratch.file("apps").path),
                temporaryDirectory: temporary)
        }
        #expect(outcome == .installed)
        #expect(Self.names(temporary) == [running.url.lastPathComponent])
        #expect(FileManager.default.fileExists(atPath: running.url.appendingPathComponent("manifest.json").path))
    }

    @Test func aBuildRemovesWhatAKilledBuildLeftAndKeepsARunningOnes() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let output = try scratch.folder("out")
        let deadWork = try OwnedScratch.create(.folder, in: output, prefix: ".travel.build-")
        try FileManager.default.createDirectory(
            at: deadWork.url.appendingPathComponent("travel.quire"), withIntermediateDirectories: true)
        deadWork.close()
        let deadPartial = try OwnedScratch.create(.file, in: output, prefix: ".travel.quire.zip.partial-")
        deadPartial.close()
        let runningWork = try OwnedScratch.create(.folder, in: output, prefix: ".people.build-")
        defer { runningWork.remove() }
        let runningPartial = try OwnedScratch.create(.file, in: output, prefix: ".travel.quire.zip.partial-")
        defer { runningPartial.remove() }
        // Not scratch, whatever its name looks like.
        try Data().write(to: output.appendingPathComponent(".travel.build-notes"))

        _ = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        #expect(
            Self.names(output)
                == [
                    ".travel.build-notes", runningWork.url.lastPathComponent, runningPartial.url.lastPathComponent,
                    "travel.quire.zip",
                ].sorted())
    }
}
