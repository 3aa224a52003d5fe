import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP proxy on 127.0.0.1 in front of a local server, to play a network that fails: ``cut()``
/// drops every connection and stops accepting (the peer looks dead), ``resume()`` listens on
/// the same port again. The server behind it keeps running, untouched.
final class LoopbackProxy: @unchecked Sendable {
    private let upstreamPort: UInt16
    private let lock = NSLock()
    private var listener: Int32 = -1
    private var connections: Set<Int32> = []
    private(set) var port: UInt16 = 0

    init(to upstreamPort: UInt16) throws {
        self.upstreamPort = upstreamPort
        try resume()
    }

    deinit { cut() }

    /// Starts accepting again, on the same port as before (a new one the first time).
    func resume() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = LoopbackProxy.address(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        lock.withLock {
            listener = descriptor
            port = UInt16(bigEndian: address.sin_port)
        }
        let thread = Thread { [self] in acceptLoop(descriptor) }
        thread.start()
    }

    /// Stops accepting and drops every open connection.
    func cut() {
        // Under the lock, so no descriptor is closed (and its number reused) meanwhile.
        lock.withLock {
            if listener >= 0 {
                shutdown(listener, Int32(SHUT_RDWR))
                close(listener)
            }
            listener = -1
            for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    private static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop(_ descriptor: Int32) {
        while true {
            let client = accept(descriptor, nil, nil)
            guard client >= 0 else {
                if lock.withLock({ listener != descriptor }) { return }
                continue
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = LoopbackProxy.address(port: upstreamPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let admitted = lock.withLock { () -> Bool in
                guard listener == descriptor, connected == 0 else { return false }
                connections.insert(client)
                connections.insert(upstream)
                return true
            }
            guard admitted else {
                close(client)
                close(upstream)
                continue
            }
            pump(from: client, to: upstream)
            pump(from: upstream, to: client)
        }
    }

    /// Copies bytes one way until either side closes, then closes both.
    private func pump(from source: Int32, to target: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(source, &buffer, buffer.count)
                if count <= 0 { break }
                var offset = 0
                while offset < count {
                    let written = buffer.withUnsafeBytes { write(target, $0.baseAddress.map { $0 + offset }, count - offset) }
                    if written <= 0 { break }
                    offset += written
                }
                if offset < count { break }
            }
            shutdown(source, Int32(SHUT_RDWR))
            shutdown(target, Int32(SHUT_RDWR))
            lock.withLock {
                // Both directions end here; the second to finish closes the descriptors.
                finishedDirections[source, default: 0] += 1
                guard finishedDirections[source] == 2 else {
                    finishedDirections[target, default: 0] += 1
                    return
                }
                connections.remove(source)
                connections.remove(target)
                finishedDirections.removeValue(forKey: source)
                finishedDirections.removeValue(forKey: target)
                close(source)
                close(target)
            }
        }
        thread.start()
    }

    private var finishedDirections: [Int32: Int] = [:]
}
