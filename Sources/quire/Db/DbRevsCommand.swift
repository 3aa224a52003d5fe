import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db revs DATABASE ID [-c COLLECTION] [--json]`.
struct DbRevsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revs",
        abstract: "Show a document's revision tree: its leaves and their ancestors.",
        discussion: """
            Each leaf on its own line, the current one first and marked *, deleted ones marked \
            (deleted), followed by its ancestors newest first. --json prints the tree as cat \
            --revs --json does: id, and leaves with rev, current, deleted and ancestors.

            Example:
              quire db revs travel.quire hotel_1 -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The document ID.")
    var id: String

    @OptionGroup var collection: DbCollectionOption

    @Flag(help: "Print the tree as one line of JSON.")
    var json = false

    func run() throws {
        let tree = try target.with { database in
            try DbCatCommand.tree(of: id, in: try collection.collection(in: database))
        }
        if json {
            try CommandOutput.json(tree)
            return
        }
        var text = ""
        for leaf in tree["leaves"]?.arrayValue ?? [] {
            let mark = leaf["current"] == .bool(true) ? "* " : "  "
            text +=
                mark + (leaf["rev"]?.stringValue ?? "") + (leaf["deleted"] == .bool(true) ? " (deleted)" : "") + "\n"
            for ancestor in leaf["ancestors"]?.arrayValue ?? [] { text += "    \(ancestor.stringValue ?? "")\n" }
        }
        CommandOutput.write(text)
    }
}
