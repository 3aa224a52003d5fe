import Foundation
import Quire
import QuireFixturesTestSupport
import QuireTestSupport
import Testing

@testable import QuireFixtures

/// Installing a fixture from a URL against a local server that plays a CDN: one that drops
/// the connection mid-transfer, serves the wrong file, answers 404, or never answers.
@Suite(.offCooperativePool) struct FixtureDownloadTests {
    /// The travel fixture's bytes and SHA-256, built once per test.
    private func travelArchive(_ scratch: ScratchFolder) throws -> (data: Data, sha256: String) {
        let url = try withArchiveLock { try SampleFixture.buildTravel(in: scratch) }
        let data = try Data(contentsOf: url)
        return (data, DigestText.hex(SHA256.hash(data: data)))
    }

    private func config(_ scratch: ScratchFolder) -> DatabaseConfiguration {
        DatabaseConfiguration(directory: scratch.file("apps").path)
    }

    @Test func aTransferDroppedHalfwayResumesWithARangeAndInstalls() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, sha256) = try travelArchive(scratch)
        let half = archive.count / 2
        let server = try ArchiveServer { request in
            request.headers["range"] == nil ? .file(archive, cutAfter: half) : .file(archive)
        }
        defer { server.stop() }
        let temporary = try scratch.folder("tmp")
        let reports = DownloadReports()
        let download = try FixtureDownload(url: server.url(), sha256: sha256, expectedSize: Int64(archive.count))
        // libarchive runs only under archiveLock, which must not be held across an await
        // (tests waiting for it block the task pool's threads): download here, install below.
        let file = scratch.file("travel.quire.zip")
        try await download.fetch(into: file) { reports.append($0) }
        #expect(try Data(contentsOf: file) == archive)
        let requests = server.requests
        #expect(requests.count == 2)
        #expect(requests.last?.headers["range"] == "bytes=\(half)-")
        #expect(requests.last?.headers["if-range"] == "\"v1\"")
        let last = try #require(reports.all.last)
        #expect(
            last
                == FixtureDownloadProgress(
                    receivedBytes: Int64(archive.count), totalBytes: Int64(archive.count), resumes: 1))
        #expect(reports.all.contains { $0.receivedBytes == Int64(half) && $0.resumes == 0 })
        let outcome = try withArchiveLock {
            try FixtureInstaller.install(
                archive: file, name: "travel", config: config(scratch), temporaryDirectory: temporary)
        }
        #expect(outcome == .installed)
        let database = try Database(name: "travel", config: config(scratch))
        defer { try? database.close() }
        #expect(try database.collection(name: "hotel", scope: "inventory")?.count == 4)
    }

    @Test func aServerThatIgnoresTheRangeStartsTheFileOver() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, sha256) = try travelArchive(scratch)
        let server = try ArchiveServer { request in
            request.headers["range"] == nil ? .file(archive, cutAfter: archive.count / 3) : .wholeFile(archive)
        }
        defer { server.stop() }
        let file = scratch.file("travel.quire.zip")
        try await FixtureDownload(url: server.url(), sha256: sha256).fetch(into: file, progress: nil)
        #expect(try Data(contentsOf: file) == archive)
        #expect(server.requests.count == 2)
    }

    @Test func aWrongFileIsRefusedBeforeAnythingIsInstalled() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, sha256) = try travelArchive(scratch)
        var other = archive
        other[other.count / 2] ^= 0xFF
        let tampered = other
        let server = try ArchiveServer { _ in .file(tampered) }
        defer { server.stop() }
        let temporary = try scratch.folder("tmp")

        await expectDownloadError(.corruptData, containing: ["SHA-256", sha256, "nothing was installed"]) {
            try await FixtureInstaller.install(
                from: try FixtureDownload(url: server.url(), sha256: sha256), name: "travel", config: config(scratch),
                temporaryDirectory: temporary)
        }
        // A size the server announces that differs from the expected one: refused before the body.
        await expectDownloadError(
            .corruptData, containing: ["\(archive.count) bytes, not the expected \(archive.count + 1)"]
        ) {
            try await FixtureInstaller.install(
                from: try FixtureDownload(url: server.url(), expectedSize: Int64(archive.count + 1)), name: "travel",
                config: config(scratch), temporaryDirectory: temporary)
        }
        #expect(!Database.exists(withName: "travel", inDirectory: config(scratch).directory))
        #expect(contents(of: temporary).isEmpty)
        #expect(contents(of: scratch.file("apps")).isEmpty)
    }

    @Test func aMissingFileATimeoutAndABadURLFailClearly() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let temporary = try scratch.folder("tmp")
        let missing = try ArchiveServer { _ in .status(404) }
        defer { missing.stop() }
        await expectDownloadError(.httpNotFound, containing: ["HTTP 404", missing.url().absoluteString]) {
            try await FixtureInstaller.install(
                from: try FixtureDownload(url: missing.url()), name: "travel", config: config(scratch),
                temporaryDirectory: temporary)
        }
        // A server that accepts and never answers: the request times out, and a request that
        // delivered nothing is not retried.
        let silent = try ArchiveServer { _ in .silent }
        defer { silent.stop() }
        await expectDownloadError(.timeout, containing: ["timed out", silent.url().absoluteString]) {
            try await FixtureInstaller.install(
                from: try FixtureDownload(url: silent.url(), timeout: 1), name: "travel", config: config(scratch),
                temporaryDirectory: temporary)
        }
        #expect(silent.requests.count <= 1)
        #expect(throws: QuireError.self) { try FixtureDownload(url: URL(fileURLWithPath: "/tmp/travel.quire.zip")) }
        #expect(throws: QuireError.self) { try FixtureDownload(url: missing.url(), sha256: "abc") }
        #expect(contents(of: temporary).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("apps").path))
    }

    @Test func ifAbsentChecksBeforeDownloading() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try Database(name: "travel", config: config(scratch)).close()
        let server = try ArchiveServer { _ in .status(500) }
        defer { server.stop() }
        let download = try FixtureDownload(url: server.url())
        let outcome = try await FixtureInstaller.install(
            from: download, name: "travel", config: config(scratch), ifAbsent: true)
        #expect(outcome == .alreadyPresent)
        await expectDownloadError(.conflict, containing: ["already exists"]) {
            try await FixtureInstaller.install(from: download, name: "travel", config: config(scratch))
        }
        #expect(server.requests.isEmpty)
    }

    @Test func cancellingStopsTheDownloadAndLeavesNothing() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let payload = Data(repeating: 7, count: 100_000)
        let server = try ArchiveServer { _ in .stall(payload, sent: 1000) }
        defer { server.stop() }
        let temporary = try scratch.folder("tmp")
        let started = AsyncStream<Void>.makeStream()
        let download = try FixtureDownload(url: server.url(), timeout: 60)
        let directory = config(scratch)
        let task = Task {
            try await FixtureInstaller.install(
                from: download, name: "travel", config: directory, temporaryDirectory: temporary
            ) {
                _ in started.continuation.yield()
            }
        }
        var arrived = started.stream.makeAsyncIterator()
        _ = await arrived.next()
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(contents(of: temporary).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch.file("apps").path))
    }

    @Test func theCommandInstallsFromAURLAndRefusesAWrongHash() async throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, sha256) = try travelArchive(scratch)
        let server = try ArchiveServer { request in
            request.headers["range"] == nil ? .file(archive, cutAfter: 1000) : .file(archive)
        }
        defer { server.stop() }
        let temporary = try scratch.folder("tmp")
        // What a killed download left behind: the next one removes it.
        let abandoned = try scratch.folder("tmp/.quire-install.download-\(UUID().uuidString)")
        try Data(archive.prefix(100)).write(to: abandoned.appendingPathComponent("travel.quire.zip"))
        let data = scratch.file("data").path
        let wrong = String(repeating: "0", count: 64)
        let refused = try runCommand(
            quire,
            [
                "fixture", "install", server.url().absoluteString, "--name", "travel", "--directory", data, "--sha256",
                wrong,
            ],
            temporary: temporary, in: scratch.url)
        #expect(refused.status != 0)
        #expect(refused.output.contains("not the expected \(wrong)"), "\(refused.output)")
        #expect(!Database.exists(withName: "travel", inDirectory: data))

        let installed = try runCommand(
            quire,
            [
                "fixture", "install", server.url().absoluteString, "--name", "travel", "--directory", data, "--sha256",
                sha256,
            ],
            temporary: temporary, in: scratch.url)
        #expect(installed.status == 0, "\(installed.output)")
        #expect(installed.output.contains("Installed \(server.url().absoluteString)"))
        #expect(Database.exists(withName: "travel", inDirectory: data))
        let before = server.requests.count
        let again = try runCommand(
            quire,
            [
                "fixture", "install", server.url().absoluteString, "--name", "travel", "--directory", data,
                "--if-absent",
            ],
            temporary: temporary, in: scratch.url)
        #expect(again.status == 0)
        #expect(again.output.contains("left untouched"))
        #expect(server.requests.count == before, "--if-absent downloads nothing")
        #expect(contents(of: temporary).isEmpty)
    }

    @Test func theCommandNamesAMissingFileATimeoutAndBadOptions() throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let temporary = try scratch.folder("tmp")
        let missing = try ArchiveServer { _ in .status(404) }
        defer { missing.stop() }
        let silent = try ArchiveServer { _ in .silent }
        defer { silent.stop() }
        let install = ["fixture", "install", "--name", "travel", "--directory", "data"]
        for (arguments, status, message) in [
            ([missing.url().absoluteString], Int32(1), "answered HTTP 404"),
            ([silent.url().absoluteString, "--timeout", "1"], 1, "timed out"),
            ([missing.url().absoluteString, "--sha256", "abc"], 64, "is not a SHA-256"),
            (["ftp://example.com/travel.quire.zip"], 64, "is not an http or https URL"),
            (
                [scratch.file("travel.quire.zip").path, "--sha256", String(repeating: "a", count: 64)], 64,
                "apply to an http or https URL"
            ),
        ] {
            let result = try runCommand(quire, install + arguments, temporary: temporary, in: scratch.url)
            #expect(result.status == status, "\(arguments): \(result.output)")
            #expect(result.output.contains(message), "\(arguments): \(result.output)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.file("data").path))
        #expect(contents(of: temporary).isEmpty)
    }

    @Test func aServerBrieflyDownIsTriedAgainWithGrowingWaits() async throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let payload = Data((0..<50_000).map { UInt8($0 % 251) })
        let answered = Locked(0)
        let server = try ArchiveServer { _ in
            answered.withLock { count in
                count += 1
                return count <= 2 ? .status(503) : .file(payload)
            }
        }
        defer { server.stop() }
        var download = try FixtureDownload(url: server.url())
        download.firstRetryWait = 0.01
        let reports = DownloadReports()
        let file = scratch.file("retried.zip")
        try await download.fetch(into: file) { reports.append($0) }
        #expect(try Data(contentsOf: file) == payload)
        #expect(server.requests.count == 3)
        #expect(reports.all.last?.retries == 2)

        // A server that stays down: the tries run out and the last answer is the error.
        let down = try ArchiveServer { _ in .status(503) }
        defer { down.stop() }
        var hopeless = try FixtureDownload(url: down.url())
        hopeless.firstRetryWait = 0.01
        hopeless.maximumRetries = 2
        await expectDownloadError(
            .httpServiceUnavailable, containing: ["answered HTTP 503", down.url().absoluteString]
        ) {
            try await hopeless.fetch(into: scratch.file("never.zip"), progress: nil)
        }
        #expect(down.requests.count == 3)
        // A 404 is not tried again.
        let missing = try ArchiveServer { _ in .status(404) }
        defer { missing.stop() }
        await expectDownloadError(.httpNotFound, containing: ["404"]) {
            try await FixtureDownload(url: missing.url()).fetch(into: scratch.file("none.zip"), progress: nil)
        }
        #expect(missing.requests.count == 1)
    }

    @Test func aKilledInstallContinuesWhereItStoppedWhenRunAgain() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, sha256) = try travelArchive(scratch)
        // The first request gets 4,000 bytes and then silence; a range request gets the rest.
        let server = try ArchiveServer { request in
            request.headers["range"] == nil ? .stall(archive, sent: 4000) : .file(archive)
        }
        defer { server.stop() }
        let runner = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let install = [
            "fixture", "install", server.url().absoluteString, "--name", "travel", "--directory", "data", "--sha256",
            sha256,
        ]
        let first = try runner.start(install)
        // Waits (at most 30 s) for the kept file to hold the 4,000 bytes, then kills the install.
        let deadline = Date().addingTimeInterval(30)
        var kept: URL?
        while Date() < deadline, kept == nil {
            kept = contents(of: scratch.url).filter {
                $0.hasPrefix(".quire-install.partial-") && !$0.hasSuffix(".validator")
            }
            .map { scratch.url.appendingPathComponent($0) }
            .first { ((try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int) ?? 0) == 4000 }
            if kept == nil { usleep(20_000) }
        }
        #expect(kept != nil, "the install kept what it downloaded: \(contents(of: scratch.url))")
        _ = first.finish(with: SIGKILL)

        let second = try runner.run(install)
        #expect(second.status == 0, "\(second.output)\(second.errors)")
        #expect(server.requests.count == 2)
        #expect(server.requests.last?.headers["range"] == "bytes=4000-")
        #expect(server.requests.last?.headers["if-range"] == "\"v1\"")
        #expect(Database.exists(withName: "travel", inDirectory: scratch.file("data").path))
        #expect(!contents(of: scratch.url).contains { $0.hasPrefix(".quire-install") }, "the kept bytes went")
    }

    @Test func aBrokenArchiveIsNamedByItsURLNotATemporaryPath() throws {
        let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let temporary = try scratch.folder("tmp")
        let server = try ArchiveServer { _ in .file(Data(repeating: 0x41, count: 3000)) }
        defer { server.stop() }
        let url = server.url().absoluteString
        let result = try runCommand(
            quire, ["fixture", "install", url, "--name", "travel", "--directory", "data"], temporary: temporary,
            in: scratch.url)
        #expect(result.status == 1)
        #expect(result.output.contains(url), "\(result.output)")
        #expect(
            !result.output.contains(temporary.path) && !result.output.contains(".quire-install"), "\(result.output)")
        #expect(contents(of: temporary).isEmpty)
    }

    @Test func contentRangeHeadersParse() {
        #expect(FixtureDownloadSession.contentRange("bytes 100-199/200")! == (100, 200))
        #expect(FixtureDownloadSession.contentRange("bytes 5-9/*")! == (5, nil))
        #expect(FixtureDownloadSession.contentRange("bytes 9-5/20") == nil)
        #expect(FixtureDownloadSession.contentRange("bytes 0-19/20x") == nil)
        #expect(FixtureDownloadSession.contentRange("items 0-1/2") == nil)
    }
}

/// Progress reports, collected from the download's queue.
private final class DownloadReports: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [FixtureDownloadProgress] = []

    func append(_ report: FixtureDownloadProgress) { lock.withLock { reports.append(report) } }
    var all: [FixtureDownloadProgress] { lock.withLock { reports } }
}

/// The error `body` throws, or nil.
private func captureError(_ body: () async throws -> some Any) async -> (any Error)? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// Expects `body` to throw a `QuireError` with `code` whose message contains every fragment.
private func expectDownloadError(
    _ code: QuireError.Code, containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> some Any
) async {
    guard let error = await captureError(body) else {
        Issue.record("expected \(code.name), got no error", sourceLocation: sourceLocation)
        return
    }
    guard let quire = error as? QuireError else {
        Issue.record("expected QuireError \(code.name), got \(error)", sourceLocation: sourceLocation)
        return
    }
    #expect(quire.code == code, "\(quire)", sourceLocation: sourceLocation)
    for fragment in fragments {
        #expect(
            quire.message.contains(fragment), "'\(quire.message)' lacks '\(fragment)'", sourceLocation: sourceLocation)
    }
}
