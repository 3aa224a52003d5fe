import Foundation
import Quire

/// Writes `quire db` output to standard output.
package enum CommandOutput {
    /// Writes `text` as is.
    package static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes `value` as one line of canonical JSON.
    package static func json(_ value: JSONValue) throws {
        write(try CommandJSONText.compact(value) + "\n")
    }

    /// Whether standard output is a terminal a person watches (and `CI` is not set): only
    /// then are progress bars drawn.
    package static var isInteractive: Bool {
        isatty(1) != 0 && (ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }
}

extension CommandOutput {
    /// Says that `verb` was done to the database folder at `path`: `Compacted /tmp/travel.cblite2`,
    /// or with `json` the line `{"database":"/tmp/travel.cblite2","ok":true}`.
    package static func done(_ verb: String, path: String, json: Bool) throws {
        if json {
            try Self.json(.object(["ok": .bool(true), "database": .string(path)]))
        } else {
            write("\(verb) \(path)\n")
        }
    }
}
