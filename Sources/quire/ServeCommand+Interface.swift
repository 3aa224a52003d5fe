#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ServeCommand {
    /// Whether `interface` only accepts connections from this machine: every address it
    /// resolves to (the way the listener resolves it when binding) is a loopback address
    /// (127.0.0.0/8, ::1, or 127.x mapped into IPv6). Decided from the addresses, not the
    /// spelling, so a host name such as `127.example.com` counts by where it points. nil when
    /// it resolves to nothing.
    static func isLoopback(_ interface: String) -> Bool? {
        var host = interface
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var first: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &first) == 0 else { return nil }
        defer { freeaddrinfo(first) }
        var cursor = first
        var found = false
        while let entry = cursor {
            defer { cursor = entry.pointee.ai_next }
            guard let address = entry.pointee.ai_addr else { continue }
            found = true
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                let ipv4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                // s_addr is in network order: its first byte is the first octet.
                let firstOctet = withUnsafeBytes(of: ipv4) { $0[0] }
                guard firstOctet == 127 else { return false }
            case AF_INET6:
                let ipv6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
                let isLoopback = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
                let isMappedLoopback =
                    bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF && bytes[12] == 127
                guard isLoopback || isMappedLoopback else { return false }
            default:
                return false
            }
        }
        return found
    }
}
