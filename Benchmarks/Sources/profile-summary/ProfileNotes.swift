import Foundation

/// Hand-written explanations, one `## <workload>` section each.
struct ProfileNotes {
    private var sections: [String: String] = [:]

    init() {}

    init(url: URL) {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
        var name: String?
        var body: [Substring] = []
        func flush() {
            if let name {
                sections[name] = body.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
            }
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                flush()
                name = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
                body = []
            } else if name != nil {
                body.append(line)
            }
        }
        flush()
    }

    /// The text of section `name`, if any.
    func section(_ name: String) -> String? {
        sections[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}
