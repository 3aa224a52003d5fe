import Foundation
import QuireTestSupport
import Testing

@testable import Quire

/// A child process writes batches and is killed with SIGKILL at varying moments; after each
/// kill the database must open, pass SQLite's integrity check, hold every batch whole or not
/// at all, never go back in sequence, and hold every batch the child reported as committed.
///
/// `QUIRE_CRASH_RUNS` sets the number of kills (50 by default; more for a longer run).
@Suite(.offCooperativePool) struct CrashConsistencyTests {
    static var helperURL: URL? {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ].compactMap { $0 }
        for directory in candidates {
            let url = directory.appendingPathComponent("quire-test-helper")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    @Test func killedWritersLoseNoCommittedBatch() throws {
        let helper = try #require(Self.helperURL, "the quire-test-helper executable is built beside the tests")
        let runs = Int(ProcessInfo.processInfo.environment["QUIRE_CRASH_RUNS"] ?? "") ?? 50
        let directory = TemporaryDirectory("quire-crash")
        var random = SeededGenerator(seed: 0x5EED)
        var lastSequence: UInt64 = 0
        var reported = Set<Int>()
        for run in 0..<runs {
            let fullSync = run % 2 == 1
            let process = Process()
            process.executableURL = helper
            process.arguments = ["crash-writer", directory.path] + (fullSync ? ["--full-sync"] : [])
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Let it commit a varying number of batches (at least one), then kill it.
            let target = 1 + Int(random.next() % 6)
            var seen = ""
            var committedThisRun = 0
            while committedThisRun < target {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                seen += String(decoding: data, as: UTF8.self)
                committedThisRun = seen.components(separatedBy: "committed ").count - 1
            }
            // A random pause of up to 3 ms spreads the kills over every moment of a batch:
            // building it, committing it, the WAL write and the checkpoints behind it.
            usleep(UInt32(random.next() % 3_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "run \(run): the writer stopped by itself")
            seen += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in seen.split(separator: "\n") where line.hasPrefix("committed ") {
                if let batch = Int(line.dropFirst("committed ".count)) { reported.insert(batch) }
            }

            let database = try Database(name: "crash", config: DatabaseConfiguration(directory: directory.path))
            #expect(try database.read { try $0.scalarText("PRAGMA integrity_check") } == "ok", "run \(run)")
            let collection = try database.createCollection(name: "batches", scope: "crash")
            let sizes = try database.read { connection in
                try connection.query(
                    "SELECT quire_extract(body, '$.batch'), count(*) FROM \(collection.table) GROUP BY 1"
                ) { (Int($0.int64(at: 0)), Int($0.int64(at: 1))) }
            }
            let present = Set(sizes.map(\.0))
            #expect(
                sizes.allSatisfy { $0.1 == 20 }, "run \(run): a batch is partly there: \(sizes.filter { $0.1 != 20 })")
            #expect(
                reported.isSubset(of: present),
                "run \(run): committed batches missing: \(reported.subtracting(present).sorted())")
            let sequence = try collection.lastSequence()
            #expect(sequence >= lastSequence, "run \(run): sequence went back from \(lastSequence) to \(sequence)")
            lastSequence = sequence
            try database.close()
        }
        #expect(reported.count >= runs)
        print(
            "crash consistency: \(runs) SIGKILLs, \(reported.count) batches reported committed, all present and whole; last sequence \(lastSequence)"
        )
    }
}
