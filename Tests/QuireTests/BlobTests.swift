import Foundation
import QuireTestSupport
import Testing

@testable import Quire

@Suite(.offCooperativePool) struct BlobTests {
    private func makeDatabase(_ directory: TemporaryDirectory, name: String = "blobs") throws -> Database {
        try Database(name: name, config: DatabaseConfiguration(directory: directory.path))
    }

    private func attachments(_ database: Database) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: database.path + "Attachments")) ?? []
        return names.filter { $0.hasSuffix(".blob") }.sorted()
    }

    private func blobFile(_ database: Database, digest: String) throws -> String {
        try database.blobStore.fileURL(forDigest: digest).path
    }

    /// Reads a stream to its end; the bytes, or the stream's error.
    private func drain(_ stream: InputStream) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count == 0 { return data }
            if count < 0 { throw stream.streamError ?? QuireError(.ioError, "stream failed") }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    @Test func emptyBlobRoundTrips() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let blob = Blob(contentType: "application/octet-stream", data: Data())
        #expect(blob.length == 0)
        #expect(blob.digest == "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=")
        try collection.save(document: MutableDocument(id: "empty").setBlob(blob, forKey: "file"))
        #expect(attachments(database) == ["2jmj7l5rSw0yVb_vlWAYkK_YBwk=.blob"])

        let read = try #require(try collection.document(id: "empty")?.blob(forKey: "file"))
        #expect(read.length == 0)
        #expect(read.digest == blob.digest)
        #expect(try read.readContent() == Data())
        #expect(try drain(try #require(read.contentStream)) == Data())
    }

    @Test func smallBlobRoundTripsThroughADocument() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.createCollection(name: "photos", scope: "media")
        let bytes = Data("hello, blob".utf8)
        let blob = Blob(contentType: "text/plain", data: bytes)
        let expectedDigest = "sha1-" + DigestText.base64(SHA1.hash(data: bytes))
        #expect(blob.digest == expectedDigest)
        #expect(blob.properties["@type"] as? String == "blob")
        #expect(blob.properties["length"] as? Int == 11)
        #expect(blob.properties["content_type"] as? String == "text/plain")
        #expect(Blob.isBlob(properties: blob.properties))
        #expect(!Blob.isBlob(properties: ["@type": "blob"]))
        #expect(!Blob.isBlob(properties: ["digest": expectedDigest]))

        try collection.save(document: MutableDocument(id: "p", data: ["title": "greeting", "attachment": blob]))
        let document = try #require(try collection.document(id: "p"))
        let read = try #require(document.blob(forKey: "attachment"))
        #expect(read == blob)
        #expect(read.contentType == "text/plain")
        #expect(read.length == 11)
        #expect(read.content == bytes)
        #expect(try drain(try #require(read.contentStream)) == bytes)
        let body = try database.read {
            try $0.scalarText("SELECT quire_body(body) FROM \(collection.table) WHERE key = 'p'")
        }
        #expect(
            body
                == #"{"attachment":{"@type":"blob","content_type":"text/plain","digest":"\#(expectedDigest)","length":11},"title":"greeting"}"#
        )
        #expect(FileManager.default.contents(atPath: try blobFile(database, digest: expectedDigest)) == bytes)
    }

    @Test func blobsInsideArraysAndDictionariesAreStored() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let first = Blob(contentType: "text/plain", data: Data("first".utf8))
        let second = Blob(contentType: "text/plain", data: Data("second".utf8))
        try collection.save(
            document: MutableDocument(id: "n", data: ["list": [1, first], "deep": ["inner": ["blob": second]]]))
        let document = try #require(try collection.document(id: "n"))
        #expect(document.array(forKey: "list")?.blob(at: 1)?.content == Data("first".utf8))
        let inner = document.dictionary(forKey: "deep")?.dictionary(forKey: "inner")
        #expect(inner?.blob(forKey: "blob")?.content == Data("second".utf8))
        #expect(attachments(database).count == 2)
    }

    @Test func blobsMadeFromAStreamOrAFileLearnTheirDigestWhenSaved() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let digest = "sha1-" + DigestText.base64(SHA1.hash(data: bytes))

        let streamed = Blob(contentType: "application/octet-stream", contentStream: InputStream(data: bytes))
        #expect(streamed.digest == nil)
        #expect(streamed.length == 0)
        #expect(streamed.contentStream == nil)
        let document = MutableDocument(id: "s").setBlob(streamed, forKey: "data")
        try collection.save(document: document)
        #expect(streamed.digest == digest)
        #expect(streamed.length == 200_000)
        #expect(try drain(try #require(streamed.contentStream)) == bytes)
        let body = try database.read {
            try $0.scalarText("SELECT quire_body(body) FROM \(collection.table) WHERE key = 's'")
        }
        #expect(body?.contains(#""digest":"\#(digest)","length":200000"#) == true)

        let file = directory.url.appendingPathComponent("source.bin")
        try bytes.write(to: file)
        let fromFile = try Blob(contentType: "application/octet-stream", fileURL: file)
        #expect(fromFile.length == 200_000)
        #expect(fromFile.digest == nil)
        #expect(fromFile.content == bytes)
        try collection.save(document: MutableDocument(id: "f").setBlob(fromFile, forKey: "data"))
        #expect(fromFile.digest == digest)
        #expect(try collection.document(id: "f")?.blob(forKey: "data")?.readContent() == bytes)
        #expect(attachments(database).count == 1)

        // Asking for the content of an unsaved stream blob reads the stream into memory.
        let loaded = Blob(contentType: "text/plain", contentStream: InputStream(data: Data("abc".utf8)))
        #expect(loaded.content == Data("abc".utf8))
        #expect(loaded.digest == "sha1-" + DigestText.base64(SHA1.hash(data: Data("abc".utf8))))
        try collection.save(document: MutableDocument(id: "l").setBlob(loaded, forKey: "data"))
        #expect(try collection.document(id: "l")?.blob(forKey: "data")?.readContent() == Data("abc".utf8))
    }

    @Test func fileBlobsNeedAnExistingLocalFile() throws {
        let directory = TemporaryDirectory()
        #expect(throws: QuireError.self) {
            _ = try Blob(contentType: "x", fileURL: directory.url.appendingPathComponent("missing"))
        }
        do {
            _ = try Blob(contentType: "x", fileURL: try #require(URL(string: "https://example.com/a.png")))
            Issue.record("a remote URL was accepted")
        } catch let error as QuireError {
            #expect(error.code == .invalidParameter)
        }
        do {
            _ = try Blob(contentType: "x", fileURL: directory.url)
            Issue.record("a directory was accepted")
        } catch let error as QuireError {
            #expect(error.code == .notFound)
        }
    }

    @Test func aLargeBlobStreamsInAndOutInBoundedMemory() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let size = 50 * 1024 * 1024
        let source = directory.url.appendingPathComponent("large.bin")
        try writeNoiseFile(at: source.path, size: size)

        let blob = Blob(contentType: "application/octet-stream", contentStream: try #require(InputStream(url: source)))
        try collection.save(document: MutableDocument(id: "large").setBlob(blob, forKey: "data"))
        #expect(blob.length == UInt64(size))
        if let expected = try systemSHA1(of: source.path) {
            #expect(blob.digest == expected)
        }

        // Read back through the checking stream, compared with the source a chunk at a time.
        let read = try #require(try collection.document(id: "large")?.blob(forKey: "data"))
        let stream = try #require(read.contentStream)
        let original = try #require(InputStream(url: source))
        stream.open()
        original.open()
        defer {
            stream.close()
            original.close()
        }
        var total = 0
        var identical = true
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var expected = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            #expect(count >= 0, "\(String(describing: stream.streamError))")
            if count <= 0 { break }
            var filled = original.read(&expected, maxLength: count)
            while filled > 0 && filled < count {
                var rest = [UInt8](repeating: 0, count: count - filled)
                let more = original.read(&rest, maxLength: rest.count)
                if more <= 0 { break }
                expected.replaceSubrange(filled..<(filled + more), with: rest[0..<more])
                filled += more
            }
            identical = identical && filled == count && memcmp(buffer, expected, count) == 0
            total += count
        }
        #expect(total == size)
        #expect(identical)
        #expect(stream.streamStatus == .atEnd)

        // Peak memory is measured in a process of its own (blobStreamingMemoryIsBounded), where
        // no other test allocates at the same time.
    }

    @Test func blobStreamingMemoryIsBounded() throws {
        let helper = try #require(
            CrashConsistencyTests.helperURL, "the quire-test-helper executable is built beside the tests")
        let directory = TemporaryDirectory()
        let process = Process()
        process.executableURL = helper
        process.arguments = ["blob-memory", directory.path, String(50 * 1024 * 1024)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let growth = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("peak-growth ") }
                .flatMap { Int($0.dropFirst("peak-growth ".count)) })
        print("50 MB blob: peak resident memory grew by \(growth / 1024) KB while storing and reading it back")
        // Sanitizers keep freed memory in quarantine and add shadow memory: no bound applies there.
        if !Sanitizers.areActive {
            #expect(growth < 16 * 1024 * 1024)
        }
    }

    /// Writes `size` bytes of noise to `path` a megabyte at a time: one random megabyte,
    /// stamped with its index so no two megabytes are alike.
    private func writeNoiseFile(at path: String, size: Int) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        var generator = SystemRandomNumberGenerator()
        var chunk = Data((0..<(1024 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var written = 0
        var index: UInt64 = 0
        while written < size {
            withUnsafeBytes(of: index) { chunk.replaceSubrange(0..<8, with: $0) }
            let count = min(chunk.count, size - written)
            try handle.write(contentsOf: chunk.prefix(count))
            written += count
            index += 1
        }
    }

    /// The digest of the file at `path` in blob form, by the system's `sha1sum`; nil where
    /// there is none.
    private func systemSHA1(of path: String) throws -> String? {
        let tool = "/usr/bin/sha1sum"
        guard FileManager.default.isExecutableFile(atPath: tool) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard let hex = text.split(separator: " ").first, let bytes = DigestText.bytes(fromHex: String(hex)) else {
            return nil
        }
        return "sha1-" + DigestText.base64(bytes)
    }

    @Test func damagedBlobFilesAreDetected() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let bytes = Data(repeating: 0x41, count: 100_000)
        let blob = Blob(contentType: "text/plain", data: bytes)
        try collection.save(document: MutableDocument(id: "d").setBlob(blob, forKey: "data"))
        let digest = try #require(blob.digest)
        let path = try blobFile(database, digest: digest)

        // Same length, one byte changed: the digest no longer matches.
        var corrupted = bytes
        corrupted[50_000] = 0x42
        try corrupted.write(to: URL(fileURLWithPath: path))
        let read = try #require(try collection.document(id: "d")?.blob(forKey: "data"))
        #expect(read.content == nil)
        do {
            _ = try read.readContent()
            Issue.record("a corrupted blob was read")
        } catch let error as QuireError {
            #expect(error.code == .corruptData)
            #expect(error.message.contains(digest))
        }
        let stream = try #require(read.contentStream)
        do {
            _ = try drain(stream)
            Issue.record("a corrupted blob was streamed")
        } catch let error as QuireError {
            #expect(error.code == .corruptData)
            #expect(error.message.contains("holds content with digest"))
        }
        #expect(stream.streamStatus == .error)

        // Truncated, and longer than its document says.
        try bytes.prefix(10).write(to: URL(fileURLWithPath: path))
        #expect(throws: QuireError.self) { _ = try read.readContent() }
        #expect(throws: QuireError.self) { _ = try drain(try #require(read.contentStream)) }
        try (bytes + Data([1])).write(to: URL(fileURLWithPath: path))
        do {
            _ = try drain(try #require(read.contentStream))
            Issue.record("an overlong blob was streamed")
        } catch let error as QuireError {
            #expect(error.message.contains("more than the 100000 bytes"))
        }

        // Missing.
        try FileManager.default.removeItem(atPath: path)
        #expect(read.contentStream == nil)
        do {
            _ = try read.readContent()
            Issue.record("a missing blob was read")
        } catch let error as QuireError {
            #expect(error.code == .notFound)
        }

        // Saving the same content again heals the file.
        try database.saveBlob(blob: Blob(contentType: "text/plain", data: bytes))
        #expect(try read.readContent() == bytes)
    }

    @Test func saveBlobAndGetBlob() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let bytes = Data("stand-alone".utf8)
        let blob = Blob(contentType: "text/plain", data: bytes)
        try database.saveBlob(blob: blob)
        #expect(attachments(database).count == 1)

        let found = try #require(try database.getBlob(properties: blob.properties))
        #expect(found == blob)
        #expect(found.contentType == "text/plain")
        #expect(found.length == UInt64(bytes.count))
        #expect(found.content == bytes)

        // A reference made by hand, without a length, gets the file's.
        let bare = try #require(try database.getBlob(properties: ["@type": "blob", "digest": blob.digest ?? ""]))
        #expect(bare.length == UInt64(bytes.count))
        #expect(bare.content == bytes)

        // A blob saved by itself can be put in a document afterwards.
        let collection = try database.defaultCollection()
        try collection.save(document: MutableDocument(id: "later").setBlob(found, forKey: "b"))
        #expect(try collection.document(id: "later")?.blob(forKey: "b")?.content == bytes)

        let streamed = Blob(contentType: "text/plain", contentStream: InputStream(data: Data("streamed".utf8)))
        try database.saveBlob(blob: streamed)
        #expect(try database.getBlob(properties: streamed.properties)?.content == Data("streamed".utf8))

        let unknown = Blob(contentType: "text/plain", data: Data("never saved".utf8))
        #expect(try database.getBlob(properties: unknown.properties) == nil)
    }

    @Test func getBlobRejectsPropertiesThatAreNotABlob() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let digest = "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk="
        let invalid: [[String: Any]] = [
            [:],
            ["digest": digest],
            ["@type": "blob"],
            ["@type": "attachment", "digest": digest],
            ["@type": "blob", "digest": 12],
            ["@type": "blob", "digest": digest, "length": -1],
            ["@type": "blob", "digest": digest, "length": "ten"],
            ["@type": "blob", "digest": digest, "content_type": 1234],
        ]
        try database.saveBlob(blob: Blob(contentType: "x", data: Data()))
        // A digest that cannot be parsed names no stored content: nil, as Couchbase Lite's
        // getBlob gives (DocumentTest.testUnknownDigest).
        for unparsable in ["md5-abc", "sha1-short"] {
            #expect(try database.getBlob(properties: ["@type": "blob", "digest": unparsable]) == nil)
        }
        for properties in invalid {
            do {
                _ = try database.getBlob(properties: properties)
                Issue.record("accepted \(properties)")
            } catch let error as QuireError {
                #expect(error.code == .invalidParameter, "\(properties)")
            }
        }
        try database.close()
        #expect(throws: QuireError.self) { _ = try database.getBlob(properties: ["@type": "blob", "digest": digest]) }
    }

    @Test func blobsMoveBetweenDatabases() throws {
        let directory = TemporaryDirectory()
        let source = try makeDatabase(directory, name: "source")
        let target = try makeDatabase(directory, name: "target")
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 / 7) })
        let streamed = Blob(contentType: "application/octet-stream", contentStream: InputStream(data: bytes))
        try source.defaultCollection().save(document: MutableDocument(id: "a").setBlob(streamed, forKey: "b"))

        // A blob read from one database, saved into a document of another.
        let read = try #require(try source.defaultCollection().document(id: "a")?.blob(forKey: "b"))
        try target.defaultCollection().save(document: MutableDocument(id: "copy").setBlob(read, forKey: "b"))
        // The blob made from a stream, once saved, goes to a second database as well.
        try target.defaultCollection().save(document: MutableDocument(id: "again").setBlob(streamed, forKey: "b"))
        try FileManager.default.removeItem(atPath: try blobFile(source, digest: try #require(read.digest)))
        #expect(try target.defaultCollection().document(id: "copy")?.blob(forKey: "b")?.readContent() == bytes)
        #expect(try target.defaultCollection().document(id: "again")?.blob(forKey: "b")?.readContent() == bytes)
        #expect(attachments(target).count == 1)
    }

    @Test func readingAStreamThatFailsSavesNothing() throws {
        let directory = TemporaryDirectory()
        let database = try makeDatabase(directory)
        let collection = try database.defaultCollection()
        let unreadable = try #require(InputStream(url: directory.url.appendingPathComponent("gone.bin")))
        let blob = Blob(contentType: "x", contentStream: unreadable)
        #expect(throws: QuireError.self) {
            try collection.save(document: MutableDocument(id: "bad").setBlob(blob, forKey: "b"))
        }
        #expect(try collection.document(id: "bad") == nil)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: database.path + "Attachments")
        #expect(leftovers.isEmpty)
    }
}

/// Whether this process runs under AddressSanitizer or ThreadSanitizer, whose runtimes change
/// what memory measurements mean. The helper processes the tests start are built the same way.
enum Sanitizers {
    static let areActive: Bool = {
        let process = dlopen(nil, RTLD_LAZY)
        let runtimes: [String] = ["__asan_init", "__tsan_init"]
        return runtimes.contains { dlsym(process, $0) != nil }
    }()
}
