import QuireFixtures

/// A seeded pseudo-random generator (xoshiro256**, seeded through SplitMix64) whose output is
/// fixed by its seed on every platform and Swift version.
///
/// It deliberately does not conform to `RandomNumberGenerator`: the standard library's
/// `random(in:using:)`, `shuffled(using:)` and friends may change their algorithms between
/// releases, which would change generated datasets. Every derived draw is defined here.
struct SeededGenerator {
    private var state: (UInt64, UInt64, UInt64, UInt64)

    init(seed: UInt64) {
        var mixer = seed
        func splitMix() -> UInt64 {
            mixer &+= 0x9e37_79b9_7f4a_7c15
            var z = mixer
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
        state = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        let result = rotateLeft(state.1 &* 5, 7) &* 9
        let shifted = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= shifted
        state.3 = rotateLeft(state.3, 45)
        return result
    }

    /// A uniform integer in `0..<bound` (bound > 0), without modulo bias.
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let limit = UInt64(bound)
        let threshold = (0 &- limit) % limit
        while true {
            let value = next()
            if value >= threshold { return Int(value % limit) }
        }
    }

    /// A uniform integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// True with probability `numerator / denominator`.
    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// `count` distinct elements of `items`, in the order drawn.
    mutating func pick<T>(_ count: Int, distinctFrom items: [T]) -> [T] {
        var pool = items
        var chosen: [T] = []
        for _ in 0..<min(count, pool.count) {
            chosen.append(pool.remove(at: below(pool.count)))
        }
        return chosen
    }
}

@inline(__always)
private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
    (value << count) | (value >> (64 - count))
}
