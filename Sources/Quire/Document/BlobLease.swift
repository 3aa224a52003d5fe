import Foundation

/// The pins one save holds on the blobs its document refers to, from before the blobs are
/// installed until the document is committed (see ``BlobPinBoard``).
///
/// Most saves install no blob, so the lease learns its folder's key (a path with symbolic
/// links resolved, which takes system calls) only when it pins its first digest.
final class BlobLease: @unchecked Sendable {
    // @unchecked: `folder` and `digests` are only touched under `lock`.
    private let store: BlobStore
    private let lock = NSLock()
    private var folder: String?
    private var digests: [String] = []

    /// A lease on blobs of `store`, holding no pins yet.
    init(store: BlobStore) {
        self.store = store
    }

    /// Pins `digest` until ``release()``.
    func pin(_ digest: String) {
        let folder = lock.withLock {
            if let folder = self.folder { return folder }
            let resolved = store.pinFolder
            self.folder = resolved
            return resolved
        }
        BlobPinBoard.shared.pin(digest, folder: folder)
        lock.withLock { digests.append(digest) }
    }

    /// Takes back every pin of this lease.
    func release() {
        let (held, folder) = lock.withLock {
            defer { digests = [] }
            return (digests, self.folder)
        }
        guard let folder else { return }
        BlobPinBoard.shared.unpin(held, folder: folder)
    }

    deinit {
        release()
    }
}
