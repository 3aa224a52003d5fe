import Foundation

@testable import Quire

/// A fresh temporary directory, removed when the value is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "quire-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// An append-only list of events, recorded from several threads.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []

    func record(_ event: String) {
        lock.lock()
        items.append(event)
        lock.unlock()
    }

    var events: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }

    func index(of event: String) -> Int? { events.firstIndex(of: event) }
}

/// Runs `body` on a new thread; `join()` waits for it.
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var failure: (any Error)?

    init(_ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { failure = error }
            done.signal()
        }
        thread.start()
    }

    /// Waits for the thread and rethrows what it threw.
    func join() throws {
        done.wait()
        if let failure { throw failure }
    }
}

/// Waits (yielding, without a fixed sleep) until `condition` holds.
func waitUntil(_ condition: () -> Bool) {
    while !condition() { sched_yield() }
}
