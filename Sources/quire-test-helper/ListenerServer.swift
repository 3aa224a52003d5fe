import Foundation
import Quire
import QuireListener
import QuireSync

/// Serves a database in DIRECTORY on a loopback port for load tests, so the server's memory
/// can be read from `/proc/<pid>/status` without the test runner's own allocations in it.
///
/// `quire-test-helper listener DIRECTORY PASSWORD MAX-BODY-BYTES` prints `port <n>` once it
/// listens (user `peer`, the given password, bodies up to MAX-BODY-BYTES), then serves until
/// its standard input closes, stops the listener, closes the database and prints `stopped`.
enum ListenerServer {
    static func run(_ arguments: [String]) {
        guard arguments.count == 3, let maxBody = Int(arguments[2]), maxBody > 0 else {
            TestHelper.fail("usage: quire-test-helper listener DIRECTORY PASSWORD MAX-BODY-BYTES", status: 2)
        }
        let password = arguments[1]
        do {
            let database = try Database(name: "load", config: DatabaseConfiguration(directory: arguments[0]))
            var config = URLEndpointListenerConfiguration(
                collections: [try database.defaultCollection()], port: 0, networkInterface: "127.0.0.1",
                authenticator: ListenerPasswordAuthenticator { $0 == "peer" && $1 == password })
            config.maxRequestBodySize = maxBody
            let listener = URLEndpointListener(config: config)
            let started = DispatchSemaphore(value: 0)
            let failure = Locked<(any Error)?>(nil)
            Task {
                do { try await listener.start() } catch { failure.withLock { $0 = error } }
                started.signal()
            }
            started.wait()
            if let error = failure.withLock({ $0 }) { TestHelper.fail("cannot start: \(error)") }
            FileHandle.standardOutput.write(Data("port \(listener.port ?? 0)\n".utf8))
            // Serve until the test closes our standard input.
            _ = FileHandle.standardInput.readDataToEndOfFile()
            let stopped = DispatchSemaphore(value: 0)
            Task {
                await listener.stop()
                stopped.signal()
            }
            stopped.wait()
            try database.close()
            FileHandle.standardOutput.write(Data("stopped\n".utf8))
        } catch {
            TestHelper.fail("\(error)")
        }
    }
}
