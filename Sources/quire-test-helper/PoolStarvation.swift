import Foundation
import Quire
import QuireListener
import QuireSync

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks that replication and the listener keep going while writes are held open, on a
/// cooperative pool of two threads.
///
/// `quire-test-helper pool-starvation DIRECTORY` serves a `remote` database on loopback and
/// runs three continuous pull replications from it, into `held-1`, `held-2` and `free`. The
/// writers of the two `held` databases are then held open (the write-transaction hook blocks
/// the thread that enters it) by their own replications' next insert. While they are held, a
/// change made on `remote` must still reach `free` and `GET /` must still be answered: store
/// work from async code runs on threads of its own, so two blocked writes take no thread of
/// the pool. Prints `ok` and exits 0, or names what starved and exits 1; every wait is bounded.
///
/// Swift concurrency's pool has one thread per core (on Linux `LIBDISPATCH_COOPERATIVE_POOL_STRICT`
/// does not shrink it), so the helper first blocks all but two of them with ballast tasks:
/// the check means the same on a 2-core machine and a 64-core one.
enum PoolStarvation {
    static let wait: TimeInterval = 15

    static func run(_ arguments: [String]) {
        guard arguments.count == 1 else {
            TestHelper.fail("usage: quire-test-helper pool-starvation DIRECTORY", status: 2)
        }
        let ballast = DispatchSemaphore(value: 0)
        let ballastCount = max(0, ProcessInfo.processInfo.activeProcessorCount - 2)
        let ballastStarted = DispatchSemaphore(value: 0)
        for _ in 0..<ballastCount {
            Task.detached {
                ballastStarted.signal()
                ballast.wait()
            }
        }
        for _ in 0..<ballastCount {
            guard ballastStarted.wait(timeout: .now() + wait) == .success else {
                TestHelper.fail("the ballast tasks did not start")
            }
        }
        do {
            try check(directory: arguments[0])
            FileHandle.standardOutput.write(Data("ok\n".utf8))
            exit(0)
        } catch {
            // Threads may still be blocked: exit without waiting for them.
            TestHelper.fail("\(error)")
        }
    }

    struct Starved: Error, CustomStringConvertible {
        let description: String
    }

    private static func check(directory: String) throws {
        let configuration = DatabaseConfiguration(directory: directory)
        let remote = try Database(name: "remote", config: configuration)
        let held = try (1...2).map { try Database(name: "held-\($0)", config: configuration) }
        let free = try Database(name: "free", config: configuration)
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: [try remote.defaultCollection()], port: 0, networkInterface: "127.0.0.1"))
        let started = DispatchSemaphore(value: 0)
        Task {
            try? await listener.start()
            started.signal()
        }
        guard started.wait(timeout: .now() + wait) == .success, let port = listener.port else {
            throw Starved(description: "the listener did not start")
        }
        let url = URL(string: "ws://127.0.0.1:\(port)/remote")!
        try remote.defaultCollection().save(document: MutableDocument(id: "first", data: ["n": 1]))

        var replicators: [Replicator] = []
        for database in held + [free] {
            var config = ReplicatorConfiguration(target: URLEndpoint(url: url))
            config.replicatorType = .pull
            config.continuous = true
            config.addCollection(try database.defaultCollection())
            let replicator = Replicator(config: config)
            replicators.append(replicator)
            replicator.start()
        }
        for database in held + [free] {
            try waitForDocument("first", in: database, what: "the first pull into \(database.name)")
        }

        // Hold the writers of the two `held` databases at their replications' next insert.
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchGroup()
        release.enter()
        for database in held {
            database.setWriteTransactionHook {
                entered.signal()
                release.wait()
            }
        }
        defer { release.leave() }
        try remote.defaultCollection().save(document: MutableDocument(id: "second", data: ["n": 2]))
        for database in held {
            guard entered.wait(timeout: .now() + wait) == .success else {
                throw Starved(description: "the pull into \(database.name) never reached its write")
            }
        }

        // Two writes are held: the pool must still run the listener and the third replication.
        try waitForDocument("second", in: free, what: "the pull into free (with two writes held)")
        try remote.defaultCollection().save(document: MutableDocument(id: "third", data: ["n": 3]))
        try waitForDocument("third", in: free, what: "a later change pulled into free (with two writes held)")
        try getRoot(port: port)
        replicators.forEach { $0.stop() }
    }

    /// Waits until `database` has document `id`.
    private static func waitForDocument(_ id: String, in database: Database, what: String) throws {
        let collection = try database.defaultCollection()
        let arrived = DispatchSemaphore(value: 0)
        let token = collection.addDocumentChangeListener(id: id) { _ in arrived.signal() }
        defer { token.remove() }
        if try collection.document(id: id) != nil { return }
        guard arrived.wait(timeout: .now() + wait) == .success else {
            throw Starved(description: "\(what) did not happen within \(Int(wait)) s")
        }
    }

    /// `GET /` on the listener, answered within the bounded wait.
    private static func getRoot(port: UInt16) throws {
        let answered = DispatchSemaphore(value: 0)
        let status = Locked<Int?>(nil)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/")!)
        request.timeoutInterval = wait
        URLSession.shared.dataTask(with: request) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode }
            answered.signal()
        }.resume()
        guard answered.wait(timeout: .now() + wait + 1) == .success, status.withLock({ $0 }) == 200 else {
            throw Starved(description: "GET / was not answered with 200 within \(Int(wait)) s (with two writes held)")
        }
    }
}
