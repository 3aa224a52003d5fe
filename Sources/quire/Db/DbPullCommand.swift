import ArgumentParser
import Foundation
import Quire
import QuireSync

/// `quire db pull DATABASE URL [--collection C ...] [--channel CH ...] [--doc-id ID ...] [--filter NAME] [--user U --password-file F]`.
struct DbPullCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Pull changes from a remote database, once or live (CouchDB replication protocol).",
        discussion: """
            Fetches the changes since the last pull (the checkpoint is kept in the database), creating named collections that are missing, and prints \
            how many documents went and how long it took. Collections map to <url> for the \
            default one and <url>.<scope>.<collection> for others, as quire serve serves them. \
            A network failure ends the run after --attempts tries, each waiting at most --timeout \
            seconds for an answer. --bidi pushes as well; --continuous keeps replicating until \
            Ctrl-C. Credentials come from --user and --password-file or the URL, and output \
            never shows the password.

            Example:
              quire db pull travel.quire http://127.0.0.1:4984/travel --doc-id h1
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @OptionGroup var options: DbReplicationOptions

    @Option(help: "A filter function on the server (CouchDB's filter=ddoc/name) that chooses the documents.")
    var filter: String?

    func run() throws {
        try options.run(.pull, target: target, filter: filter)
    }
}
