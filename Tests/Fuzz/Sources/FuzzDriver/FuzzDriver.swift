import Foundation

/// libFuzzer's own driver, linked in by `-sanitize=fuzzer`. SwiftPM wants every executable to
/// have a Swift `main`, so the targets call the driver from theirs rather than exporting
/// `LLVMFuzzerTestOneInput` and letting libFuzzer's `main` run.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// Starts libFuzzer with the process's arguments (`-max_total_time=60 corpus/`, a crash
/// file to replay, ...) and exits with its status.
public enum FuzzDriver {
    /// Runs libFuzzer; `callback` gets each input and returns 0. It cannot capture anything
    /// (it is a C function pointer), so it forwards to a static function of the target.
    public static func run(_ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, callback))
    }

    /// The input as a buffer; libFuzzer passes a null pointer for the empty input.
    public static func buffer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
        guard let data, size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: data, count: size)
    }

    /// Stops the process so libFuzzer records the input: for a broken invariant rather than a
    /// crash (a value that does not survive a round trip, a file written where it must not be).
    public static func fail(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
        FileHandle.standardError.write(Data("fuzz invariant broken: \(message)\n".utf8))
        fatalError(message, file: file, line: line)
    }
}

/// Reads structured choices from fuzzer bytes, for targets that build values rather than
/// parse text. Running out of bytes yields zeros, so every input means something.
public struct FuzzBytes {
    private let bytes: UnsafeRawBufferPointer
    private var offset = 0

    /// Reads from `bytes`, which must outlive this value.
    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// Whether every byte has been used.
    public var isEmpty: Bool { offset >= bytes.count }

    /// The next byte, or 0 after the end.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next eight bytes as a little-endian integer.
    public mutating func uint64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, shift in value | UInt64(byte()) << (8 * UInt64(shift)) }
    }

    /// Up to `limit` of the next bytes, the count given by the next byte.
    public mutating func bytes(upTo limit: Int) -> [UInt8] {
        let count = min(Int(byte()), limit, bytes.count - min(offset, bytes.count))
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}

/// A thread with a chosen stack size that runs one piece of work at a time for the caller,
/// which waits: for targets whose input must also be handled on a small stack (Apple
/// platforms give secondary threads 512 KiB).
public final class SmallStackThread: @unchecked Sendable {
    private let start = DispatchSemaphore(value: 0)
    private let finish = DispatchSemaphore(value: 0)
    /// Set by the caller before `start` is signalled, cleared after `finish`; the semaphores
    /// order every access.
    private var work: (() -> Void)?

    /// Starts the thread with `stackSize` bytes of stack.
    public init(stackSize: Int) {
        let thread = Thread { [self] in
            while true {
                start.wait()
                work?()
                finish.signal()
            }
        }
        thread.stackSize = stackSize
        thread.start()
    }

    /// Runs `body` on the thread and returns when it is done.
    public func run(_ body: () -> Void) {
        withoutActuallyEscaping(body) { escaping in
            work = escaping
            start.signal()
            finish.wait()
            work = nil
        }
    }
}
