/// A small, fast, reproducible generator (SplitMix64) for generated spec data, so a `--seed`
/// gives the same values on every machine and Swift version.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Mixes a seed with text (FNV-1a), so each case and variable gets its own stream that
    /// does not shift when other cases are added.
    static func derive(_ seed: UInt64, _ parts: String...) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ seed
        for part in parts {
            for byte in part.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            hash ^= 0xFF
            hash &*= 0x0000_0100_0000_01B3
        }
        var mixer = SeededRandom(seed: hash)
        return mixer.next()
    }
}
