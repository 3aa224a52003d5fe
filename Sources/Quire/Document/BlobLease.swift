import Foundation

/// The pins one save holds on the blobs its document refers to, from before the blobs are
/// installed until the document is committed (see ``BlobPinBoard``).
///
/// Most saves install no blob, so the lease learns its folder's key (a path with symbolic
/// links resolved, which takes system calls) only when it pins its first digest.
final class BlobLease: Sendable {
    private let store: BlobStore
    private let pins = Locked((folder: String?.none, digests: [String]()))

    /// A lease on blobs of `store`, holding no pins yet.
    init(store: BlobStore) {
        self.store = store
    }

    /// Pins `digest` until ``release()``.
    func pin(_ digest: String) {
        let folder = pins.withLock { pins in
            if let folder = pins.folder { return folder }
            let resolved = store.pinFolder
            pins.folder = resolved
            return resolved
        }
        BlobPinBoard.shared.pin(digest, folder: folder)
        pins.withLock { $0.digests.append(digest) }
    }

    /// Takes back every pin of this lease.
    func release() {
        let (held, folder) = pins.withLock { pins in
            defer { pins.digests = [] }
            return (pins.digests, pins.folder)
        }
        guard let folder else { return }
        BlobPinBoard.shared.unpin(held, folder: folder)
    }

    deinit {
        release()
    }
}
