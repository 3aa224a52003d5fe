import Foundation
import Testing

@testable import Quire

/// Couchbase Lite's logging API (couchbase-lite-ios `Swift/Tests/LogSinkTest.swift`): the
/// console, file and custom sinks, their levels and domains, and the files the file sink
/// writes (LiteCore `LogFiles.cc`: one file per level, rotation, headers, the binary format).
///
/// The sinks are process-wide, so the suite runs its tests one at a time, each putting the
/// sinks back as it found them. Other suites log while these run (opening databases, running
/// queries), so each test marks its messages and counts only those.
@Suite(.serialized)
struct LogSinkTests {
    /// A custom sink recording the messages that carry `marker`.
    final class RecordingSink: LogSinkProtocol {
        let marker: String
        private let recorded = Locked<[(LogLevel, LogDomain, String)]>([])

        init(marker: String) { self.marker = marker }

        func writeLog(level: LogLevel, domain: LogDomain, message: String) {
            guard message.contains(marker) else { return }
            recorded.withLock { $0.append((level, domain, message)) }
        }

        /// The recorded messages, the marker removed.
        var lines: [String] {
            recorded.withLock { $0.map { $0.2.replacingOccurrences(of: marker, with: "") } }
        }

        var domains: [LogDomain] { recorded.withLock { $0.map(\.1) } }
    }

    /// Runs `body` with the console sink off, then puts all three sinks back.
    private func withSinks(_ body: () throws -> Void) rethrows {
        let (console, file, custom) = (LogSinks.console, LogSinks.file, LogSinks.custom)
        defer {
            LogSinks.console = console
            LogSinks.file = file
            LogSinks.custom = custom
        }
        LogSinks.console = nil
        try body()
    }

    private func logAllLevels(_ message: String) {
        for level in [LogLevel.error, .warning, .info, .verbose, .debug] {
            Log.log(domain: .database, level: level, message: message)
        }
    }

    /// The verbose, info, warning and error messages of the Couchbase Lite tests.
    private func logTestMessages(_ marker: String) {
        Log.log(domain: .database, level: .verbose, message: "TEST VERBOSE \(marker)")
        Log.log(domain: .database, level: .info, message: "TEST INFO \(marker)")
        Log.log(domain: .database, level: .warning, message: "TEST WARNING \(marker)")
        Log.log(domain: .database, level: .error, message: "TEST ERROR \(marker)")
    }

    /// About a kilobyte of messages at each level (Couchbase Lite's `writeOneKiloByteOfLog`).
    private func logOneKilobyte(_ marker: String) {
        for _ in 0..<23 { logAllLevels("11223344556677889900 \(marker)") }
        logAllLevels("1 \(marker)")
    }

    private func logFiles(_ directory: TemporaryDirectory) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory.url, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "cbllog" }
    }

    private func text(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    private func level(ofFile url: URL) -> String {
        url.lastPathComponent.split(separator: "_")[1].description
    }

    // covers: LogSinkTest.testDefaltLogSinks
    @Test func theConsoleSinkIsOnAtWarningByDefaultAndTheOthersOff() {
        #expect(LogSinks.console?.level == .warning)
        #expect(LogSinks.console?.domains == .all)
        #expect(LogSinks.custom == nil)
        #expect(LogSinks.file == nil)
    }

    // covers: LogSinkTest.testFileLogSinkProperties
    @Test func aFileSinkKeepsItsSettingsAndDefaults() {
        var sink = FileLogSink(level: .info, directory: "/tmp/logs")
        #expect(sink.level == .info)
        #expect(sink.directory == "/tmp/logs")
        #expect(!sink.usePlaintext)
        #expect(sink.maxKeptFiles == FileLogSink.defaultMaxKeptFiles)
        #expect(sink.maxFileSize == FileLogSink.defaultMaxSize)
        #expect(FileLogSink.defaultMaxKeptFiles == 2 && FileLogSink.defaultMaxSize == 524_288)

        sink = FileLogSink(
            level: .verbose, directory: "/tmp/logs", usePlainText: true, maxKeptFiles: 10, maxFileSize: 2048)
        #expect(sink.level == .verbose)
        #expect(sink.usePlaintext)
        #expect(sink.maxKeptFiles == 10)
        #expect(sink.maxFileSize == 2048)
    }

    // covers: LogSinkTest.testFileLogSinkLogLevels
    @Test func eachFileTakesItsLevelWhileTheSinkReachesIt() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            // Set again with the same directory, the sink keeps its files and takes the new level.
            for level in [LogLevel.none, .error, .warning, .info, .verbose] {
                LogSinks.file = FileLogSink(level: level, directory: directory.path, usePlainText: true)
                logTestMessages(marker)
            }
            let files = try logFiles(directory)
            #expect(files.count == 5)
            var marked: [String: Int] = [:]
            for file in files {
                let lines = try text(file).split(separator: "\n")
                #expect(lines.count >= 2 && lines[0].contains("---- serialNo=1,") && lines[1].contains("---- Quire/"))
                marked[level(ofFile: file)] = lines.filter { $0.contains(marker) }.count
            }
            #expect(marked == ["debug": 0, "verbose": 1, "info": 2, "warning": 3, "error": 4])
        }
    }

    // covers: LogSinkTest.testFileLogSinkBinaryFormat
    @Test func binaryFilesAreLiteCoresLogFormat() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(level: .info, directory: directory.path)
            Log.log(domain: .database, level: .info, message: "TEST INFO % \(marker)")
            Log.log(domain: .query, level: .info, message: "again \(marker)")
            let info = try #require(try logFiles(directory).first { level(ofFile: $0) == "info" })
            let bytes = [UInt8](try Data(contentsOf: info))
            #expect(Array(bytes.prefix(6)) == [0xCF, 0xB2, 0xAB, 0x1B, 1, 8])
            var reader = BinaryLogReader(bytes)
            // Two headers, then this test's messages; tests running beside it may have logged
            // into the (global) sink in between, so only the marked ones are compared.
            let entries = try reader.entries()
            try #require(entries.count >= 4)
            #expect(entries[0].text.hasPrefix("---- serialNo=1,logDirectory=\(directory.path),fileLogLevel=2,"))
            #expect(entries[1].text.hasPrefix("---- Quire/"))
            let marked = entries.dropFirst(2).filter { $0.text.contains(marker) }
            try #require(marked.count == 2)
            #expect(marked[0].level == 2 && marked[0].domain == "DB" && marked[0].text == "TEST INFO % \(marker)")
            #expect(marked[1].domain == "Query" && marked[1].text == "again \(marker)")
        }
    }

    // covers: LogSinkTest.testFileLogSinkPlainTextFormat
    @Test func plainTextFilesHoldOneLinePerMessage() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(level: .info, directory: directory.path, usePlainText: true)
            Log.log(domain: .replicator, level: .info, message: "SOME TEST INFO \(marker)")
            let info = try #require(try logFiles(directory).first { level(ofFile: $0) == "info" })
            let line = try #require(try text(info).split(separator: "\n").first { $0.contains(marker) })
            #expect(line.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z Sync Info SOME TEST INFO .+/#) != nil)
        }
    }

    // covers: LogSinkTest.testFileLogSinkFilename
    @Test func filesAreNamedByLevelAndMilliseconds() throws {
        let directory = TemporaryDirectory("quire-logs")
        try withSinks {
            LogSinks.file = FileLogSink(level: .debug, directory: directory.path, usePlainText: true)
            let names = try logFiles(directory).map(\.lastPathComponent)
            #expect(names.count == 5)
            for name in names {
                #expect(name.wholeMatch(of: #/cbl_(debug|verbose|info|warning|error)_\d+\.cbllog/#) != nil)
            }
        }
    }

    // covers: LogSinkTest.testFileLogSinkMaxSize
    @Test func aFullFileRotatesAndOnlyTheNewestAreKept() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(
                level: .debug, directory: directory.path, usePlainText: true, maxKeptFiles: 3, maxFileSize: 1024)
            logOneKilobyte(marker)
            logOneKilobyte(marker)
            // The sinks are global: tests running beside this one log into the file sink too,
            // so a message of theirs can rotate a file (and remove the oldest) between the
            // listing and the reads. Detached, the sink writes nothing more.
            LogSinks.file = nil
            let files = try logFiles(directory)
            #expect(files.count == 3 * 5)
            for file in files {
                // A file is rotated after the write that takes it past the limit: what came
                // before its last line was under the limit. (Its last line may be another
                // test's message, of any length.)
                let bytes = try Data(contentsOf: file).dropLast()
                let lastLineStart = bytes.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.startIndex
                #expect(lastLineStart - bytes.startIndex <= 1024)
            }
            // The files kept are the newest of each level: the rotated ones went first.
            let serials = try files.map { file in
                let header = try text(file).split(separator: "\n")[0]
                return Int(try #require(header.firstMatch(of: #/serialNo=(\d+),/#)).output.1) ?? 0
            }
            #expect(!serials.contains(1) && serials.allSatisfy { $0 >= 3 })
        }
    }

    // covers: LogSinkTest.testDisableFileLogSink
    @Test func aFileSinkAtNoneOrNilWritesNothing() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(
                level: .none, directory: directory.path, usePlainText: true, maxKeptFiles: 3, maxFileSize: 1024)
            logAllLevels(marker)
            #expect(try logFiles(directory).isEmpty)
            LogSinks.file = nil
            logAllLevels(marker)
            let holding = try logFiles(directory).filter { try text($0).contains(marker) }
            #expect(holding.isEmpty)
        }
    }

    // covers: LogSinkTest.testReEnableFileLogSink
    @Test func aFileSinkSetAgainAfterNilWritesNewFiles() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(level: .verbose, directory: directory.path, usePlainText: true)
            logAllLevels(marker)
            LogSinks.file = nil
            logAllLevels(marker)
            // No pause: a name taken within the same millisecond moves on to the next one.
            LogSinks.file = FileLogSink(level: .verbose, directory: directory.path, usePlainText: true)
            logAllLevels(marker)
            let files = try logFiles(directory)
            #expect(files.count == 10)
            let holding = try files.filter { try text($0).contains(marker) }
            #expect(holding.count == 8)
            // The closed files end with a trailer; each holds the message once.
            for file in holding { #expect(try text(file).components(separatedBy: marker).count == 2) }
            let ended = try files.filter { try text($0).hasSuffix("---- END ----\n") }
            #expect(ended.count == 5)
        }
    }

    // covers: LogSinkTest.testLogFileHeader
    @Test func eachFileStartsWithItsOptionsAndWhatWroteIt() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            LogSinks.file = FileLogSink(level: .verbose, directory: directory.path, usePlainText: true)
            logOneKilobyte(marker)
            let files = try logFiles(directory)
            #expect(files.count >= 5)
            for file in files {
                let lines = try text(file).components(separatedBy: "\n")
                try #require(lines.count >= 2)
                #expect(lines[0].contains("---- serialNo="))
                #expect(lines[0].contains("logDirectory=\(directory.path),"))
                #expect(lines[1].contains("Quire/\(QuireVersion.current)"))
                #expect(lines[1].contains("Build/"))
                #expect(lines[1].contains("Commit/"))
            }
        }
    }

    // covers: LogSinkTest.testConsoleLogSinkProperties
    @Test func aConsoleSinkKeepsItsLevelAndDomains() {
        withSinks {
            LogSinks.console = ConsoleLogSink(level: .verbose)
            #expect(LogSinks.console?.level == .verbose)
            #expect(LogSinks.console?.domains == .all)
            LogSinks.console = ConsoleLogSink(level: .info, domains: .replicator)
            #expect(LogSinks.console?.level == .info)
            #expect(LogSinks.console?.domains == .replicator)
        }
    }

    // covers: LogSinkTest.testCustomLogSinkProperties
    @Test func aCustomSinkKeepsItsLevelDomainsAndReceiver() {
        withSinks {
            let receiver = RecordingSink(marker: "")
            LogSinks.custom = CustomLogSink(level: .verbose, logSink: receiver)
            #expect(LogSinks.custom?.level == .verbose)
            #expect(LogSinks.custom?.domains == .all)
            #expect(LogSinks.custom?.logSink as? RecordingSink === receiver)
            LogSinks.custom = CustomLogSink(level: .info, domains: .replicator, logSink: receiver)
            #expect(LogSinks.custom?.level == .info)
            #expect(LogSinks.custom?.domains == .replicator)
            #expect(LogSinks.custom?.logSink as? RecordingSink === receiver)
        }
    }

    // covers: LogSinkTest.testEnableDisableCustomLogSink
    @Test func aCustomSinkAtNoneReceivesNothing() {
        withSinks {
            let marker = UUID().uuidString
            var receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .verbose, logSink: receiver)
            logTestMessages(marker)
            #expect(receiver.lines.count == 4)
            receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .none, logSink: receiver)
            logTestMessages(marker)
            #expect(receiver.lines.isEmpty)
        }
    }

    // covers: LogSinkTest.testCustomLogSinkLevels
    @Test func aCustomSinkReceivesItsLevelAndAbove() {
        withSinks {
            let marker = UUID().uuidString
            for level in [LogLevel.none, .error, .warning, .info, .verbose] {
                let receiver = RecordingSink(marker: marker)
                LogSinks.custom = CustomLogSink(level: level, logSink: receiver)
                logTestMessages(marker)
                #expect(receiver.lines.count == 5 - Int(level.rawValue), "level \(level)")
            }
        }
    }

    // covers: LogSinkTest.testCustomLogSinkDomains
    @Test func aCustomSinkReceivesItsDomainsOnly() {
        withSinks {
            let marker = UUID().uuidString
            let domains: [LogDomain] = [.database, .query, .replicator, .network, .listener]
            let names = domains.map { "\($0)" }
            func logEachDomain() {
                for (domain, name) in zip(domains, names) {
                    Log.log(domain: domain, level: .verbose, message: name + marker)
                }
            }
            for (index, domain) in domains.enumerated() {
                let receiver = RecordingSink(marker: marker)
                LogSinks.custom = CustomLogSink(
                    level: .debug, domains: LogDomains(rawValue: domain.rawValue), logSink: receiver)
                logEachDomain()
                #expect(receiver.lines == [names[index]])
                #expect(receiver.domains == [domain])
            }
            for count in 1...domains.count {
                let combined = LogDomains(domains.prefix(count).map { LogDomains(rawValue: $0.rawValue) })
                let receiver = RecordingSink(marker: marker)
                LogSinks.custom = CustomLogSink(level: .debug, domains: combined, logSink: receiver)
                logEachDomain()
                #expect(receiver.lines == Array(names.prefix(count)))
            }
            let receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .debug, domains: .all, logSink: receiver)
            logEachDomain()
            #expect(receiver.lines == names)
        }
    }

    // covers: LogSinkTest.testPercentEscape
    @Test func aPercentSignInAMessageStaysAsWritten() {
        withSinks {
            let marker = UUID().uuidString
            let receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .info, logSink: receiver)
            Log.log(domain: .database, level: .info, message: "Hello %s there \(marker)")
            #expect(receiver.lines == ["Hello %s there "])
        }
    }

    @Test func quireLogsOpeningClosingAndQueriesInTheirDomains() throws {
        let directory = TemporaryDirectory()
        let marker = "log" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        try withSinks {
            let receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .verbose, domains: [.database, .query], logSink: receiver)
            var config = DatabaseConfiguration()
            config.directory = directory.path
            let database = try Database(name: marker, config: config)
            _ = try database.createQuery("SELECT \(marker) FROM _").execute()
            try database.close()
            let expected: [(LogDomain, String)] = [
                (.database, "Opened database ''"), (.query, "Compiled query: "), (.database, "Closed database ''"),
            ]
            try #require(receiver.lines.count == expected.count)
            for ((domain, start), (line, logged)) in zip(expected, zip(receiver.lines, receiver.domains)) {
                #expect(logged == domain && line.hasPrefix(start), "\(line)")
            }
        }
    }

    @Test func threadsLoggingAtOnceLoseNoMessage() throws {
        let directory = TemporaryDirectory("quire-logs")
        let marker = UUID().uuidString
        try withSinks {
            let receiver = RecordingSink(marker: marker)
            LogSinks.custom = CustomLogSink(level: .info, logSink: receiver)
            LogSinks.file = FileLogSink(
                level: .info, directory: directory.path, usePlainText: true, maxKeptFiles: 1000, maxFileSize: 4096)
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                for index in 0..<200 {
                    Log.log(domain: .database, level: .info, message: "\(thread)-\(index) \(marker)")
                }
            }
            #expect(Set(receiver.lines).count == 8 * 200)
            let infoFiles = try logFiles(directory).filter { level(ofFile: $0) == "info" }
            #expect(infoFiles.count > 1)
            let lines = try infoFiles.flatMap { try text($0).split(separator: "\n") }.filter { $0.contains(marker) }
            #expect(Set(lines.map { $0.split(separator: " ")[3] }).count == 8 * 200)
        }
    }

    @Test func aClosureCustomSinkReceivesMessages() {
        withSinks {
            let marker = UUID().uuidString
            let received = Locked<[String]>([])
            LogSinks.custom = CustomLogSink(level: .warning, domains: .query) { level, domain, message in
                guard message.contains(marker) else { return }
                received.withLock { $0.append("\(domain) \(level) \(message)") }
            }
            Log.log(domain: .query, level: .warning, message: marker)
            Log.log(domain: .query, level: .info, message: marker)
            Log.log(domain: .database, level: .error, message: marker)
            #expect(received.withLock { $0 } == ["query warning \(marker)"])
        }
    }

    @Test func aDirectoryThatCannotBeMadeLeavesFileLoggingOffWithAWarning() throws {
        let directory = TemporaryDirectory("quire-logs")
        let blocker = directory.file("not-a-directory")
        try Data("x".utf8).write(to: URL(fileURLWithPath: blocker))
        withSinks {
            let receiver = RecordingSink(marker: blocker)
            LogSinks.custom = CustomLogSink(level: .warning, logSink: receiver)
            LogSinks.file = FileLogSink(level: .info, directory: blocker + "/logs", usePlainText: true)
            #expect(receiver.lines.count == 1)
            #expect(receiver.domains == [.database])
            Log.log(domain: .database, level: .error, message: "dropped")
        }
    }
}

/// Reads LiteCore's binary log format, as the `cbl-log` tool does, for the tests: every
/// argument of Quire's formats is a length-prefixed string.
struct BinaryLogReader {
    struct Entry {
        var level: UInt8
        var domain: String
        var text: String
    }

    private let bytes: [UInt8]
    private var offset = 0
    private var tokens: [String] = []

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    struct Malformed: Error {}

    private mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Malformed() }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private mutating func token() throws -> String {
        let number = Int(try varint())
        if number < tokens.count { return tokens[number] }
        guard number == tokens.count, let end = bytes[offset...].firstIndex(of: 0) else { throw Malformed() }
        tokens.append(String(decoding: bytes[offset..<end], as: UTF8.self))
        offset = end + 1
        return tokens[number]
    }

    mutating func entries() throws -> [Entry] {
        guard bytes.count >= 6, bytes[4] == 1, bytes[5] == 8 else { throw Malformed() }
        offset = 6
        _ = try varint()  // the start time
        var entries: [Entry] = []
        while offset < bytes.count {
            _ = try varint()  // microseconds since the previous entry
            let level = bytes[offset]
            offset += 1
            let domain = try token()
            guard try varint() == 0 else { throw Malformed() }  // no object
            let format = try token()
            var text = ""
            var rest = Substring(format)
            while let percent = rest.firstIndex(of: "%") {
                text += rest[..<percent]
                let spec = rest[percent...].prefix { $0 != "s" }
                rest = rest[rest.index(after: spec.endIndex)...]
                let length = Int(try varint())
                guard offset + length <= bytes.count else { throw Malformed() }
                text += String(decoding: bytes[offset..<offset + length], as: UTF8.self)
                offset += length
            }
            entries.append(Entry(level: level, domain: domain, text: text + rest))
        }
        return entries
    }
}
