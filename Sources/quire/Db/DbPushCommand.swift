import ArgumentParser
import Foundation
import Quire
import QuireSync

/// `quire db push DATABASE URL [--collection C ...] [--channel CH ...] [--doc-id ID ...] [--user U --password-file F]`.
struct DbPushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Push changes to a remote database, once or live (CouchDB replication protocol).",
        discussion: """
            Sends the changes since the last push (the checkpoint is kept in the database) and prints \
            how many documents went and how long it took. Collections map to <url> for the \
            default one and <url>.<scope>.<collection> for others, as quire serve serves them. \
            A network failure ends the run after --attempts tries, each waiting at most --timeout \
            seconds for an answer. --bidi pulls as well; --continuous keeps replicating until \
            Ctrl-C. Credentials come from --user and --password-file or the URL, and output \
            never shows the password.

            Example:
              quire db push travel.quire http://127.0.0.1:4984/travel -c hotel --continuous
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @OptionGroup var options: DbReplicationOptions

    func run() throws {
        try options.run(.push, target: target)
    }
}
