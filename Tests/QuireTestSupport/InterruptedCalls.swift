import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `recv(2)` that goes on when a signal interrupts it. A blocking read that a signal handler or
/// a debugger attaching to the process interrupts returns -1 with `EINTR` having read nothing:
/// neither the end of the stream nor a timeout, which is how the tests' raw clients took it
/// before.
package func receiveRetryingInterrupts(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    while true {
        let received = recv(descriptor, buffer, count, 0)
        if received < 0 && errno == EINTR { continue }
        return received
    }
}

/// `send(2)` with `MSG_NOSIGNAL` that goes on when a signal interrupts it before a byte went
/// out (-1 with `EINTR`), as ``receiveRetryingInterrupts(_:_:_:)`` does for reads.
package func sendRetryingInterrupts(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    while true {
        let sent = send(descriptor, buffer, count, Int32(MSG_NOSIGNAL))
        if sent < 0 && errno == EINTR { continue }
        return sent
    }
}
