import Foundation

@testable import Quire

/// A small deterministic generator (SplitMix64), so random tests fail the same way twice.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

enum JSONSamples {
    /// Tricky but valid JSON texts, each parsed and written back by the round-trip tests.
    static let corpus: [String] = [
        #"null"#, #"true"#, #"false"#, #"0"#, #"-0"#, #"-1"#, #"1.5"#, #""""#, #"[]"#, #"{}"#,
        #"  [ 1 , 2 ,3 ]  "#,
        "\t\r\n{\n\"a\" :\t[ ] }\n",
        #"{"escapes":"\"\\\/\b\f\n\r\t\u0000\u001f\u0041\u00e9\u00E9\u20ac\uFFFF"}"#,
        #"{"astral":"\ud83d\ude00 \uD834\uDD1E", "raw":"😀𝄞"}"#,
        #"["é", "€", "ü", "日本語", "\u00e9", "e\u0301"]"#,
        #"{"int64":[9223372036854775807,-9223372036854775808,9223372036854775808,-9223372036854775809]}"#,
        #"[18446744073709551615, 18446744073709551616, 123456789012345678901234567890]"#,
        #"[0.1, 0.2, 0.30000000000000004, 1e-300, 5e-324, 4.9406564584124654e-324, 2.2250738585072014e-308]"#,
        #"[1.7976931348623157e308, 1.7976931348623157E+308, -1.7976931348623157e308, 1e-400, 1E2, 1e+2, 1e-2]"#,
        #"[3.14159265358979323846264338327950288, 2.718281828459045, 100, 100.0, 1.0e0, 0e0, -0.0]"#,
        #"{"a":{"b":{"c":{"d":[[[["deep"]]]]}}}}"#,
        #"{"dup":1,"dup":2,"other":{"dup":3}}"#,
        #"[{"a":[1,{"b":2,"c":[3]}],"d":{}},[],{},[[]],[{}]]"#,
        #"{"":"empty key","key with spaces":"v","ключ":"значение"}"#,
        #"["a string long enough to cross several eight-byte words without any escape at all"]"#,
        #"["a string long enough to cross several words \" with an escape in the middle"]"#,
        #"{"doc":{"_id":"x","type":"note","tags":["a","b"],"n":null,"ok":true,"score":-12.25e3}}"#,
    ]
}

extension JSONValue {
    /// Equality that also tells -0.0 from 0.0, which `==` on doubles does not.
    func isIdentical(to other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.double(a), .double(b)): return a.bitPattern == b.bitPattern
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isIdentical(to: $1) }
        case let (.object(a), .object(b)):
            return a.count == b.count
                && a.allSatisfy { key, value in
                    b[key].map { value.isIdentical(to: $0) } ?? false
                }
        default: return self == other
        }
    }

    /// A random value of bounded size and depth, with strings that need every kind of
    /// escape and numbers from every range.
    static func random(depth: Int = 0, using generator: inout SeededGenerator) -> JSONValue {
        let kind = Int.random(in: 0..<(depth >= 4 ? 5 : 7), using: &generator)
        switch kind {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2:
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return .int(Int64.random(in: -100...100, using: &generator))
            case 1: return .int([Int64.min, Int64.max, 0, -1][Int.random(in: 0..<4, using: &generator)])
            default: return .int(Int64.random(in: .min ... .max, using: &generator))
            }
        case 3:
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return .double(Double.random(in: -1000...1000, using: &generator))
            case 1:
                let specials: [Double] = [
                    0.0, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude,
                    .leastNormalMagnitude, 0.1, 1e16, 2.0, -1e-7,
                ]
                return .double(specials[Int.random(in: 0..<specials.count, using: &generator)])
            default:
                var bits = UInt64.random(in: .min ... .max, using: &generator)
                while !Double(bitPattern: bits).isFinite {
                    bits = UInt64.random(in: .min ... .max, using: &generator)
                }
                return .double(Double(bitPattern: bits))
            }
        case 4: return .string(randomString(using: &generator))
        case 5:
            let count = Int.random(in: 0..<6, using: &generator)
            return .array((0..<count).map { _ in random(depth: depth + 1, using: &generator) })
        default:
            let count = Int.random(in: 0..<6, using: &generator)
            var members: [String: JSONValue] = [:]
            for _ in 0..<count {
                members[randomString(using: &generator)] = random(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    static func randomString(using generator: inout SeededGenerator) -> String {
        let length = Int.random(in: 0..<24, using: &generator)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length {
            let range: ClosedRange<UInt32>
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: range = 0x00...0x1F
            case 1: range = 0x7F...0x7FF
            case 2: range = 0x800...0xD7FF
            case 3: range = 0x10000...0x10FFFF
            default: range = 0x20...0x7E
            }
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
