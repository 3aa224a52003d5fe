import Foundation

/// A child process for tests that must run apart from the test runner's other threads:
///
/// - `quire-test-helper crash-writer DIRECTORY [--full-sync] [--batch-size N]` writes batches
///   until killed (crash-consistency tests);
/// - `quire-test-helper blob-memory DIRECTORY SIZE` stores a blob of SIZE bytes from a stream
///   and reads it back through a stream, then prints the growth of peak resident memory
///   (memory tests need a process where nothing else allocates);
/// - `quire-test-helper listener DIRECTORY PASSWORD MAX-BODY-BYTES` serves a database on a
///   loopback port until its standard input closes (load and bad-peer tests, which read the
///   server's memory from outside);
/// - `quire-test-helper upgrade DIRECTORY NAME` opens a database, upgrading an older file
///   (schema migration tests kill it during the upgrade);
/// - `quire-test-helper pool-starvation DIRECTORY` checks that replication and the listener
///   go on while writes are held on a two-thread cooperative pool.
@main
enum TestHelper {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "crash-writer":
            CrashWriter.run(Array(arguments.dropFirst()))
        case "blob-memory":
            BlobMemory.run(Array(arguments.dropFirst()))
        case "listener":
            ListenerServer.run(Array(arguments.dropFirst()))
        case "upgrade":
            SchemaUpgrader.run(Array(arguments.dropFirst()))
        case "pool-starvation":
            PoolStarvation.run(Array(arguments.dropFirst()))
        default:
            fail("usage: quire-test-helper crash-writer|blob-memory|listener|upgrade|pool-starvation ...", status: 2)
        }
    }

    static func fail(_ message: String, status: Int32 = 1) -> Never {
        FileHandle.standardError.write(Data("quire-test-helper: \(message)\n".utf8))
        exit(status)
    }
}
