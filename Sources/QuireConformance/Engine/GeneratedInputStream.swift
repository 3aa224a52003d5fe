import Foundation

/// A stream of `size` reproducible bytes: SplitMix64 from a seed, each draw written as eight
/// little-endian bytes, the last draw cut short. Large blob specs stream it in, so the
/// content is never held whole in memory and its digest can be computed anywhere.
final class GeneratedInputStream: InputStream {
    private let size: Int
    private var random: SeededRandom
    private var produced = 0
    /// The current draw, shifted so its next byte is the lowest.
    private var draw: UInt64 = 0
    /// How many bytes of the current draw are left.
    private var left = 0
    private var status: Stream.Status = .notOpen

    init(size: Int, seed: UInt64) {
        self.size = size
        random = SeededRandom(seed: seed)
        super.init(data: Data())
    }

    override func open() {
        if status == .notOpen { status = .open }
    }

    override func close() {
        status = .closed
    }

    override var streamStatus: Stream.Status { status }

    override var streamError: Error? { nil }

    override var hasBytesAvailable: Bool { (status == .open || status == .reading) && produced < size }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open || status == .reading else { return status == .atEnd ? 0 : -1 }
        var written = 0
        let count = min(length, size - produced)
        while written < count {
            if left == 0 {
                draw = random.next()
                left = 8
            }
            buffer[written] = UInt8(truncatingIfNeeded: draw)
            draw >>= 8
            left -= 1
            written += 1
        }
        produced += written
        status = produced < size ? .reading : .atEnd
        return written
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
