import Foundation
import Quire

/// An error of a `quire db` subcommand, printed as one sentence naming the fault
/// (`Error: No database 'travel' in /tmp.`); the tool then exits with status 1.
package struct CommandFailure: Error, CustomStringConvertible {
    /// The sentence.
    package let description: String

    /// A failure saying `message`, made into a sentence ending in a full stop, its first word
    /// capitalised when it is a plain word and `capitalizing` is true (the top-level handler
    /// keeps library messages as written, since scripts match them).
    package init(_ message: String, capitalizing: Bool = true) {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        // A plain first word gets a capital; a name (a file, a collection, an ID) stays as written.
        let firstWord = text.prefix { $0 != " " }
        if capitalizing, let first = text.first, first.isLowercase, firstWord.allSatisfy(\.isLetter) {
            text = first.uppercased() + text.dropFirst()
        }
        if let last = text.last, !".!?".contains(last) { text += "." }
        description = text
    }

    /// Runs `body`, turning a `QuireError` or a Foundation error into a ``CommandFailure`` with its
    /// message alone (the code and domain are for programs, not for the person at the shell).
    package static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as QuireError {
            throw CommandFailure(error.message)
        } catch let error as CommandFailure {
            throw error
        } catch let error as CocoaError {
            throw CommandFailure(error.localizedDescription)
        }
    }
}
