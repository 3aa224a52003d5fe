import Foundation

/// The pins one save holds on the blobs its document refers to, from before the blobs are
/// installed until the document is committed (see ``BlobPinBoard``).
final class BlobLease: @unchecked Sendable {
    private let folder: String
    private let lock = NSLock()
    private var digests: [String] = []

    /// A lease on blobs of `store`, holding no pins yet.
    init(store: BlobStore) {
        folder = store.pinFolder
    }

    /// Pins `digest` until ``release()``.
    func pin(_ digest: String) {
        BlobPinBoard.shared.pin(digest, folder: folder)
        lock.withLock { digests.append(digest) }
    }

    /// Takes back every pin of this lease.
    func release() {
        let held = lock.withLock {
            defer { digests = [] }
            return digests
        }
        BlobPinBoard.shared.unpin(held, folder: folder)
    }

    deinit {
        release()
    }
}
