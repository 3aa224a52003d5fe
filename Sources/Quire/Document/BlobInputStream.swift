import Foundation

/// An input stream over a stored blob file that checks the content as it is read.
///
/// It hashes every byte it hands out. Reading fails (`read` returns -1, `streamStatus` is
/// `.error` and `streamError` a ``QuireError`` with code corruptData) at the first byte past
/// the expected length, and at the end of the file when the content is shorter than
/// expected or its digest differs. So a consumer that reads to the end either has checked
/// content or an error; it holds no more than its own buffer in memory.
final class BlobInputStream: InputStream {
    private let path: String
    private let expectedDigest: String
    private let expectedLength: UInt64
    private var file: BlobFile?
    private var hasher = SHA1()
    private var delivered: UInt64 = 0
    private var status: Stream.Status = .notOpen
    /// Why reading failed, when it did.
    private(set) var failure: QuireError?

    init(path: String, digest: String, length: UInt64) {
        self.path = path
        expectedDigest = digest
        expectedLength = length
        super.init(data: Data())
    }

    deinit {
        file?.close()
    }

    override func open() {
        guard status == .notOpen else { return }
        do {
            file = try BlobFile.openForReading(path)
            status = .open
        } catch let error as QuireError {
            fail(
                error.code == .notFound
                    ? QuireError(.notFound, "blob \(expectedDigest) is missing: \(error.message)") : error)
        } catch {
            fail(QuireError(.ioError, "cannot open blob \(expectedDigest): \(error)"))
        }
    }

    override func close() {
        file?.close()
        file = nil
        if status != .error { status = .closed }
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: Error? { failure }

    override var hasBytesAvailable: Bool { status == .open || status == .reading }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        switch status {
        case .atEnd: return 0
        case .open, .reading: break
        default: return -1
        }
        guard let file, length > 0 else { return 0 }
        let count: Int
        do {
            count = try file.read(into: buffer, count: length)
        } catch let error as QuireError {
            fail(error)
            return -1
        } catch {
            fail(QuireError(.ioError, "cannot read blob \(expectedDigest): \(error)"))
            return -1
        }
        if count == 0 { return finish() }
        delivered += UInt64(count)
        guard delivered <= expectedLength else {
            fail(
                QuireError(
                    .corruptData,
                    "blob \(expectedDigest) has more than the \(expectedLength) bytes its document says (file \(path))")
            )
            return -1
        }
        hasher.update(UnsafeRawBufferPointer(start: buffer, count: count))
        status = .reading
        return count
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }

    override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    /// The end of the file: the content is good only if it has the expected length and digest.
    private func finish() -> Int {
        guard delivered == expectedLength else {
            fail(
                QuireError(
                    .corruptData,
                    "blob \(expectedDigest) has \(delivered) bytes on disk, its document says \(expectedLength) (file \(path))"
                ))
            return -1
        }
        let actual = "sha1-" + DigestText.base64(hasher.finalize())
        guard actual == expectedDigest else {
            fail(
                QuireError(
                    .corruptData, "blob file for \(expectedDigest) holds content with digest \(actual) (file \(path))"))
            return -1
        }
        status = .atEnd
        return 0
    }

    private func fail(_ error: QuireError) {
        failure = error
        status = .error
        file?.close()
        file = nil
    }
}
