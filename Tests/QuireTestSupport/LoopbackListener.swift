import Foundation
import Quire

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on 127.0.0.1, on a port the system picks, for the tests that play an HTTP
/// peer on raw sockets (a scripted or hostile server, a CDN that drops a download): each
/// connection it accepts goes to the function given to ``start(_:)``, on a thread of its own,
/// which closes it when done.
package final class LoopbackListener: Sendable {
    /// The port it listens on.
    package let port: UInt16
    private let descriptor: Int32
    private let stopped = Locked(false)

    /// Starts listening; connections wait until ``start(_:)``.
    ///
    /// - Throws: `POSIXError` when no socket can be made or bound.
    package init(backlog: Int32 = 16) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, backlog) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Accepts connections until ``stop()``, handing each one's descriptor to `serve`.
    package func start(_ serve: @escaping @Sendable (_ connection: Int32) -> Void) {
        let (descriptor, stopped) = (descriptor, stopped)
        // The loop holds the descriptor and the flag, not the listener, so dropping the
        // listener stops it.
        Thread {
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 {
                    if stopped.withLock({ $0 }) {
                        close(descriptor)
                        return
                    }
                    continue
                }
                Thread { serve(connection) }.start()
            }
        }.start()
    }

    /// Stops accepting (once; later calls do nothing). Connections already accepted go on.
    package func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Only shut down: the accept loop closes the descriptor once it has seen the stop, so
        // its number cannot be handed to another socket while the loop may still accept on it.
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    deinit { stop() }
}
