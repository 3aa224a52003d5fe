/// Compares expected values with actual ones.
///
/// Numbers compare by value (`1` equals `1.0`); everything else compares by kind and content.
/// Partial matching checks only the keys an expected object lists, at any depth; arrays
/// always compare element by element and must have the same length.
enum ValueMatcher {
    /// The first difference found: where it is and what was there.
    struct Mismatch: Sendable, Equatable {
        /// The path to the difference (`_meta.sequence`, `rows.0.name`), empty at the top.
        var path: [String]
        var expected: String
        var actual: String

        /// `at rows.0.name: expected "a", found "b"` or `expected 1, found 2` at the top.
        var description: String {
            let place = path.isEmpty ? "" : "at \(path.joined(separator: ".")): "
            return "\(place)expected \(expected), found \(actual)"
        }
    }

    /// Deep equality with numbers compared by value.
    static func equal(_ lhs: SpecValue, _ rhs: SpecValue) -> Bool {
        mismatch(expected: lhs, actual: rhs, partial: false) == nil
    }

    /// The first difference between `expected` and `actual`, or nil when they match.
    /// With `typed`, numbers must also have the same JSON type (`1` is not `1.0`).
    static func mismatch(
        expected: SpecValue, actual: SpecValue, partial: Bool, typed: Bool = false, path: [String] = []
    ) -> Mismatch? {
        switch (expected, actual) {
        case (.object(let wanted), .object(let found)):
            for key in wanted.keys.sorted() {
                guard let value = found[key] else {
                    return Mismatch(path: path + [key], expected: render(wanted[key] ?? .null), actual: "no such key")
                }
                if let difference = mismatch(
                    expected: wanted[key] ?? .null, actual: value, partial: partial, typed: typed, path: path + [key])
                {
                    return difference
                }
            }
            if !partial, let extra = found.keys.sorted().first(where: { wanted[$0] == nil }) {
                return Mismatch(path: path + [extra], expected: "no such key", actual: render(found[extra] ?? .null))
            }
            return nil
        case (.array(let wanted), .array(let found)):
            for (index, element) in wanted.enumerated() where index < found.count {
                if let difference = mismatch(
                    expected: element, actual: found[index], partial: partial, typed: typed,
                    path: path + [String(index)])
                {
                    return difference
                }
            }
            if wanted.count != found.count {
                return Mismatch(
                    path: path, expected: "\(wanted.count) \(wanted.count == 1 ? "element" : "elements")",
                    actual: "\(found.count): \(render(actual))")
            }
            return nil
        case (.int, .double) where typed, (.double, .int) where typed:
            return Mismatch(
                path: path, expected: "\(render(expected)) (\(expected.typeName))",
                actual: "\(render(actual)) (\(actual.typeName))")
        default:
            if let lhs = expected.doubleValue, let rhs = actual.doubleValue {
                return lhs == rhs ? nil : Mismatch(path: path, expected: render(expected), actual: render(actual))
            }
            return expected == actual ? nil : Mismatch(path: path, expected: render(expected), actual: render(actual))
        }
    }

    /// Compact JSON, shortened when long.
    static func render(_ value: SpecValue, limit: Int = 300) -> String {
        let text = value.description
        return text.count > limit ? String(text.prefix(limit - 3)) + "..." : text
    }
}
