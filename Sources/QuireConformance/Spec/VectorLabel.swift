/// How vector values appear in expanded case names: short, unambiguous and stable.
enum VectorLabel {
    /// Characters that would make a label ambiguous inside `[name=value, ...]`.
    private static let delimiters: Set<Character> = [",", "[", "]", "=", "\"", "#"]

    /// `_a`, `""`, `x×252`, `" "`, `"\n"`, `abcdefghijklmnopqrst…(64)`, `{"a":1}`.
    static func render(_ value: SpecValue) -> String {
        guard let text = value.stringValue else {
            let json = value.description
            return json.count > 40 ? String(json.prefix(30)) + "…(\(json.count))" : json
        }
        return render(text)
    }

    /// The label of a string.
    static func render(_ text: String) -> String {
        if text.isEmpty { return "\"\"" }
        let scalars = Array(text.unicodeScalars)
        if scalars.count > 8, Set(scalars).count == 1 {
            return "\(render(String(scalars[0])))×\(scalars.count)"
        }
        let needsQuotes =
            text.contains(where: { delimiters.contains($0) || $0.isWhitespace })
            || text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        let shown = text.count > 40 ? String(text.prefix(30)) + "…(\(text.count))" : text
        return needsQuotes ? JSONText.quote(shown) : shown
    }
}
