import Foundation
import QuireTestSupport
import Testing

@testable import Quire

#if canImport(Glibc)
    import Glibc

    /// The raw clients of the listener tests read through `receiveRetryingInterrupts`: a signal
    /// handled on a thread blocked in `recv`, or a debugger attaching to the process, makes
    /// `recv` return -1 with `EINTR`, which the clients used to take for a closed connection
    /// or a timeout (a ThreadSanitizer run with thread dumps failed 25 listener tests so).
    @Suite struct InterruptedCallsTests {
        /// A blocked read, interrupted by a signal whose handler has no `SA_RESTART`.
        private struct Interrupted {
            let received: Int
            let interrupted: Bool
        }

        private static func installHandler() {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { _ in }
            action.sa_flags = 0
            sigemptyset(&action.sa_mask)
            sigaction(SIGUSR2, &action, nil)
        }

        /// Reads one byte with `read` on a thread of its own, signals that thread while it
        /// waits, then sends the byte.
        private static func interruptedRead(_ read: @escaping @Sendable (Int32) -> (Int, Int32)) throws -> Interrupted {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else {
                throw POSIXError(.EIO)
            }
            defer { pair.forEach { close($0) } }
            let (reader, writer) = (pair[0], pair[1])
            let waiting = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            let state = Locked<(thread: pthread_t?, result: (Int, Int32))>((nil, (0, 0)))
            Thread {
                // A thread started from Swift concurrency's pool inherits its mask, which
                // blocks asynchronous signals; the read must be one a signal can reach.
                var signals = sigset_t()
                sigemptyset(&signals)
                sigaddset(&signals, SIGUSR2)
                pthread_sigmask(SIG_UNBLOCK, &signals, nil)
                state.withLock { $0.thread = pthread_self() }
                waiting.signal()
                let result = read(reader)
                state.withLock { $0.result = result }
                done.signal()
            }.start()
            waiting.wait()
            // Long enough for the thread to be inside `recv` even on a loaded machine.
            Thread.sleep(forTimeInterval: 0.3)
            if let thread = state.withLock({ $0.thread }) { pthread_kill(thread, SIGUSR2) }
            Thread.sleep(forTimeInterval: 0.1)
            var byte: UInt8 = 42
            _ = send(writer, &byte, 1, Int32(MSG_NOSIGNAL))
            guard done.wait(timeout: .now() + 10) == .success else { throw POSIXError(.ETIMEDOUT) }
            let (received, error) = state.withLock { $0.result }
            return Interrupted(received: received, interrupted: received < 0 && error == EINTR)
        }

        @Test func aSignalDoesNotEndARead() throws {
            Self.installHandler()
            // The premise: a plain `recv` gives up when the signal lands (tried a few times,
            // in case a loaded machine delivered the signal before the read began).
            var plainGaveUp = false
            for _ in 0..<5 where !plainGaveUp {
                let plain = try Self.interruptedRead { descriptor in
                    var byte: UInt8 = 0
                    let received = recv(descriptor, &byte, 1, 0)
                    return (received, errno)
                }
                plainGaveUp = plain.interrupted
            }
            #expect(plainGaveUp, "a signal never interrupted a plain recv")
            let retried = try Self.interruptedRead { descriptor in
                var byte: UInt8 = 0
                let received = receiveRetryingInterrupts(descriptor, &byte, 1)
                return (received, errno)
            }
            #expect(retried.received == 1)
        }
    }
#endif
