import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One open log file of one level: `cbl_<level>_<ms>.cbllog`, plain text or LiteCore's binary
/// format. ``LogFiles`` owns it and calls it under its lock.
struct LogFile: Sendable {
    let level: LogLevel
    let path: String
    /// The file's number in its level's sequence, 1 for the first, written in its header.
    let serial: Int
    /// The bytes written so far.
    private(set) var size: UInt64 = 0
    private let directory: String
    private var descriptor: Int32
    private var encoder: BinaryLogEncoder?

    /// The extension of every log file, plain text or binary, as Couchbase Lite names them.
    static let fileExtension = "cbllog"

    /// Creates a new file named after `level` and the current time in milliseconds, a later
    /// millisecond if that name is taken (so a file rotated, or a sink set again, within one
    /// millisecond never truncates the file before it).
    ///
    /// - Throws: ``QuireError`` (POSIX) when no file can be created.
    init(level: LogLevel, directory: String, plaintext: Bool, serial: Int) throws {
        self.level = level
        self.directory = directory
        self.serial = serial
        var millis = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        while true {
            let path = (directory as NSString).appendingPathComponent(
                "cbl_\(level.fileName)_\(millis).\(Self.fileExtension)")
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                self.path = path
                self.descriptor = descriptor
                break
            }
            guard errno == EEXIST else {
                throw QuireError.posix(errno, "cannot create the log file \(path): \(String(cString: strerror(errno)))")
            }
            millis += 1
        }
        if !plaintext {
            let encoder = BinaryLogEncoder(start: Date())
            append(encoder.header)
            self.encoder = encoder
        }
    }

    var isOpen: Bool { descriptor >= 0 }

    /// The two lines a file starts with: its serial number and options, then what wrote it.
    mutating func writeHeader(maxSize: UInt64, maxKeptFiles: Int) {
        let options =
            "serialNo=\(serial),logDirectory=\(directory),fileLogLevel=\(level.rawValue),"
            + "fileMaxSize=\(maxSize),fileMaxCount=\(maxKeptFiles)"
        writeFrame(options)
        writeFrame(Self.writer)
    }

    /// Appends a message line.
    mutating func write(domain: String, message: String) {
        write(domain: domain, format: BinaryLogEncoder.messageFormat, text: message)
    }

    /// Closes the file, after an `---- END ----` line when `trailer`.
    mutating func close(trailer: Bool) {
        guard isOpen else { return }
        if trailer { write(domain: "", format: "---- END ----", text: nil) }
        closeDescriptor(descriptor)
        descriptor = -1
    }

    /// A header or trailer line: `---- text ----`, with no domain.
    private mutating func writeFrame(_ text: String) {
        write(domain: "", format: "---- %s ----", text: text)
    }

    /// One entry: in plain text the timestamp, domain, level and text; in binary the encoded
    /// entry with `text` as its one argument.
    private mutating func write(domain: String, format: String, text: String?) {
        guard isOpen else { return }
        let now = Date()
        if var encoder {
            let bytes = encoder.entry(
                level: level, domain: domain, format: format, arguments: text.map { [$0] } ?? [], at: now)
            self.encoder = encoder
            append(bytes)
        } else {
            let body = format == BinaryLogEncoder.messageFormat ? (text ?? "") : framed(format, text)
            append(Array("\(Self.timestamp(now)) \(domain) \(level.lineName) \(body)\n".utf8))
        }
    }

    private func framed(_ format: String, _ text: String?) -> String {
        guard let text else { return format }
        return format.replacingOccurrences(of: "%s", with: text)
    }

    /// Writes all of `bytes`; a failed write (a full disk) drops the rest of the entry.
    private mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = writeDescriptor(descriptor, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
        size += UInt64(bytes.count)
    }

    /// `2026-01-02T03:04:05.123456Z`: UTC with microseconds, as LiteCore writes log times.
    static func timestamp(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        let micros = Int((interval - Double(seconds)) * 1_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var fraction = String(min(micros, 999_999))
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T"
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(fraction)Z"
    }

    /// The milliseconds in a file name of `level` (`cbl_info_1764300000000.cbllog`), or nil for
    /// any other name.
    static func stamp(ofName name: String, level: LogLevel) -> Int64? {
        let prefix = "cbl_\(level.fileName)_"
        let suffix = ".\(fileExtension)"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
        return Int64(digits)
    }

    /// What wrote the file, the second header line: Quire's version, the build (its
    /// configuration) and the commit (Quire is not stamped with one).
    static let writer: String = {
        #if DEBUG
            let build = "debug"
        #else
            let build = "release"
        #endif
        #if os(Linux)
            let system = "Linux"
        #elseif os(macOS)
            let system = "macOS"
        #elseif os(iOS)
            let system = "iOS"
        #else
            let system = "unknown"
        #endif
        return "Quire/\(QuireVersion.current) (Swift; \(system)) Build/\(build) Commit/unknown"
    }()
}

// The system calls under names of their own: inside `LogFile`, `close` and `write` are its
// methods.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
