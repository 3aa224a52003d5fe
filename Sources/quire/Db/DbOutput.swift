import Foundation
import Quire

/// Writes `quire db` output to standard output.
enum DbOutput {
    /// Writes `text` as is.
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `value` as one line of canonical JSON.
    static func json(_ value: JSONValue) throws {
        write(try DbJSONText.compact(value) + "\n")
    }

    /// Whether standard output is a terminal a person watches (and `CI` is not set): only
    /// then are progress bars drawn.
    static var isInteractive: Bool {
        isatty(1) != 0 && (ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }
}
