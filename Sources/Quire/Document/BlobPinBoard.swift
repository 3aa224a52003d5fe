import Foundation

/// The process-wide record of blob digests that saves in progress are about to refer to, and
/// of the temporary files being written, per blob folder.
///
/// A save installs its blobs before its write transaction starts, so for a moment a blob
/// file exists that no committed document refers to. Compaction deletes a file only under
/// this board's lock and only when its digest is not pinned, while a save pins a digest under
/// the same lock before it looks for the file or renames one into place; so a file a save
/// counts on is never taken away. The board is shared because every ``Database`` object on a
/// file builds its own ``BlobStore``.
final class BlobPinBoard: Sendable {
    /// The board of this process.
    static let shared = BlobPinBoard()

    private struct State {
        var pins: [String: [String: Int]] = [:]
        var temporaries: Set<String> = []
    }

    private let state = Locked(State())

    /// Pins `digest` in `folder` once more.
    func pin(_ digest: String, folder: String) {
        state.withLock { state in state.pins[folder, default: [:]][digest, default: 0] += 1 }
    }

    /// Takes back one pin of each of `digests` in `folder`.
    func unpin(_ digests: [String], folder: String) {
        guard !digests.isEmpty else { return }
        state.withLock { state in
            var counts = state.pins[folder] ?? [:]
            for digest in digests {
                if let count = counts[digest], count > 1 {
                    counts[digest] = count - 1
                } else {
                    counts.removeValue(forKey: digest)
                }
            }
            state.pins[folder] = counts.isEmpty ? nil : counts
        }
    }

    /// Whether a save holds a pin on `digest` in `folder`.
    func isPinned(_ digest: String, folder: String) -> Bool {
        state.withLock { state in state.pins[folder]?[digest] != nil }
    }

    /// Runs `remove` for `digest` unless it is pinned, keeping pins out meanwhile; returns
    /// whether it ran.
    func removeUnlessPinned(_ digest: String, folder: String, _ remove: () throws -> Void) rethrows -> Bool {
        try state.withLock { state in
            if state.pins[folder]?[digest] != nil { return false }
            try remove()
            return true
        }
    }

    /// Notes that the temporary file at `path` is being written.
    func beginTemporary(_ path: String) {
        _ = state.withLock { state in state.temporaries.insert(path) }
    }

    /// Notes that the temporary file at `path` is finished with.
    func endTemporary(_ path: String) {
        _ = state.withLock { state in state.temporaries.remove(path) }
    }

    /// Runs `remove` unless the temporary file at `path` is being written; returns whether it ran.
    func removeUnlessInUse(temporary path: String, _ remove: () throws -> Void) rethrows -> Bool {
        try state.withLock { state in
            if state.temporaries.contains(path) { return false }
            try remove()
            return true
        }
    }
}
