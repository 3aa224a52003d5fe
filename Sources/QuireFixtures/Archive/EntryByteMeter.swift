import Quire

/// Counts the bytes an entry really expands to while it is read, and stops the read as soon
/// as it breaks its declared size or a limit.
struct EntryByteMeter {
    let name: String
    let declaredSize: Int64?
    let limits: ArchiveLimits
    let compressedStart: Int64
    private(set) var produced: Int64 = 0

    init(name: String, declaredSize: Int64?, limits: ArchiveLimits, compressedStart: Int64) {
        self.name = name
        self.declaredSize = declaredSize
        self.limits = limits
        self.compressedStart = compressedStart
    }

    /// Adds `count` bytes just produced; `totalProduced` is the running total for the archive,
    /// updated here; `compressedNow` is the reader's compressed position.
    mutating func add(_ count: Int, totalProduced: inout Int64, compressedNow: Int64) throws {
        produced += Int64(count)
        totalProduced += Int64(count)
        func refuse(_ rule: String) -> QuireError {
            QuireError(.corruptData, "archive entry '\(name)' \(rule)")
        }
        if let declaredSize, produced > declaredSize {
            throw refuse("holds more data than its declared \(declaredSize) bytes")
        }
        if produced > limits.maximumEntrySize {
            throw refuse("expands past the per-entry limit of \(limits.maximumEntrySize) bytes")
        }
        if totalProduced > limits.maximumTotalSize {
            throw refuse("brings the archive past the total limit of \(limits.maximumTotalSize) bytes")
        }
        if produced >= limits.compressionRatioThreshold {
            let compressed = max(compressedNow - compressedStart, 1)
            let ratio = Double(produced) / Double(compressed)
            if ratio > limits.maximumCompressionRatio {
                throw refuse(
                    "expands \(Int(ratio)) times (\(produced) bytes from \(compressed)), over the ratio limit of "
                        + "\(Int(limits.maximumCompressionRatio)) (a decompression bomb?)")
            }
        }
    }

    /// Checks the entry ended where it said it would.
    func finish() throws {
        if let declaredSize, produced != declaredSize {
            throw QuireError(
                .corruptData,
                "archive entry '\(name)' holds \(produced) bytes but declares \(declaredSize) (truncated?)")
        }
    }
}
