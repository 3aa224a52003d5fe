import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a ``FileLogSink`` writes: one open file per level in one directory, each rotated
/// when it grows past the sink's size (LiteCore `LogFiles.cc` is the behaviour followed).
///
/// Writes from several threads are serialised by the lock; after ``close()`` writes are
/// dropped (a thread that read the sinks just before the change may still be writing).
final class LogFiles: Sendable {
    let directory: String
    let plaintext: Bool
    private let state: Locked<State>

    /// The levels with a file, in order: every level but ``LogLevel/none``.
    private static let levels: [LogLevel] = [.debug, .verbose, .info, .warning, .error]

    private struct State: Sendable {
        var maxSize: UInt64
        var maxRotated: Int
        var files: [LogFile]
        var closed = false
    }

    /// Creates the directory if missing and opens a file for each level.
    ///
    /// - Throws: ``QuireError`` (POSIX) when the directory cannot be created or a file opened.
    init(_ sink: FileLogSink) throws {
        directory = sink.directory
        plaintext = sink.usePlaintext
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw QuireError(
                .cantOpenFile, "cannot create the log directory \(directory): \(error.localizedDescription)")
        }
        let maxSize = max(1024, sink.maxFileSize)
        let maxRotated = max(0, sink.maxKeptFiles - 1)
        var files: [LogFile] = []
        for level in Self.levels {
            var file = try LogFile(level: level, directory: directory, plaintext: plaintext, serial: 1)
            file.writeHeader(maxSize: maxSize, maxKeptFiles: maxRotated)
            files.append(file)
        }
        state = Locked(State(maxSize: maxSize, maxRotated: maxRotated, files: files))
    }

    /// Takes the level-independent limits of `sink` (the same directory and format).
    func update(_ sink: FileLogSink) {
        state.withLock {
            $0.maxSize = max(1024, sink.maxFileSize)
            $0.maxRotated = max(0, sink.maxKeptFiles - 1)
        }
    }

    /// Appends one message to the file of its level, then opens a new file if that one has
    /// grown past the size limit.
    func write(_ level: LogLevel, _ domain: LogDomain, _ message: String) {
        guard let index = Self.levels.firstIndex(of: level) else { return }
        state.withLock { state in
            guard !state.closed else { return }
            state.files[index].write(domain: domain.fileName, message: message)
            let file = state.files[index]
            guard file.size > state.maxSize, file.isOpen else { return }
            state.files[index].close(trailer: false)
            purge(level, keeping: state.maxRotated)
            do {
                var next = try LogFile(
                    level: level, directory: directory, plaintext: plaintext, serial: file.serial + 1)
                next.writeHeader(maxSize: state.maxSize, maxKeptFiles: state.maxRotated)
                state.files[index] = next
            } catch {
                // The old file stays closed: its writes are dropped rather than the size
                // limit broken. Nothing to report to: this is the log.
            }
        }
    }

    /// Ends each file with an `---- END ----` line and closes it.
    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            for index in state.files.indices { state.files[index].close(trailer: true) }
        }
    }

    /// Deletes the oldest files of `level` in the directory beyond the newest `kept`.
    private func purge(_ level: LogLevel, keeping kept: Int) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let stamped = names.compactMap { name in LogFile.stamp(ofName: name, level: level).map { ($0, name) } }
        let oldest = stamped.sorted { $0.0 > $1.0 }.dropFirst(kept)
        for (_, name) in oldest {
            try? FileManager.default.removeItem(atPath: (directory as NSString).appendingPathComponent(name))
        }
    }
}
