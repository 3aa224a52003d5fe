import QuireFixtures

/// Small deterministic text helpers for generated values.
enum IdentifierFormat {
    /// `value` in decimal, left-padded with zeros to `width`.
    static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// A unique upper-case letter code for `index`: at least `width` letters, more when needed.
    static func letters(_ index: Int, width: Int) -> String {
        var value = index
        var result: [Character] = []
        var capacity = 1
        for _ in 0..<width { capacity *= 26 }
        var offset = 0
        var currentWidth = width
        while value - offset >= capacity {
            offset += capacity
            capacity *= 26
            currentWidth += 1
        }
        value -= offset
        for _ in 0..<currentWidth {
            result.append(Character(Unicode.Scalar(UInt8(65 + value % 26))))
            value /= 26
        }
        return String(result.reversed())
    }

    /// `YYYY-MM-DD`.
    static func date(year: Int, month: Int, day: Int) -> String {
        "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))"
    }

    /// `hh:mm:ss`.
    static func time(hour: Int, minute: Int, second: Int) -> String {
        "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2))"
    }
}
