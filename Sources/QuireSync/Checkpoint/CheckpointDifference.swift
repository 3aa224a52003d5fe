/// One input of a stored checkpoint that differs from what a replication would use, so the
/// replication cannot resume from it.
package enum CheckpointDifference: Sendable, Equatable, CustomStringConvertible {
    /// The database has no checkpoint for the collection at all.
    case noCheckpoint
    /// `http` against `https` (`ws`/`wss` count as `http`/`https`).
    case scheme(expected: String, recorded: String)
    /// Another host.
    case host(expected: String, recorded: String)
    /// Another port (default ports written out: 80, 443).
    case port(expected: Int, recorded: Int)
    /// Another database path on the server (or another keyspace).
    case path(expected: String, recorded: String)
    /// Another collection.
    case collection(expected: String, recorded: String)
    /// Other channels.
    case channels(expected: [String], recorded: [String])
    /// Another server-side filter.
    case filter(expected: String?, recorded: String?)
    /// Other filter parameters.
    case filterParameters(expected: [String: String], recorded: [String: String])
    /// Other document IDs.
    case documentIDs(expected: [String], recorded: [String])
    /// The checkpoint was made by a database whose private UUID is neither this one's nor
    /// one it had before a `Database.copy`.
    case uuid(recorded: String, known: [String])
    /// The checkpoint was made with this database's own UUID at another path: the database
    /// was copied as files, without `Database.copy`, so it shares its UUID with the original.
    case uuidNotRegenerated(recordedPath: String, currentPath: String)

    /// The difference in one sentence.
    package var description: String {
        switch self {
        case .noCheckpoint:
            return "no checkpoint is stored for this collection"
        case .scheme(let expected, let recorded):
            return "URL form: the scheme is \(expected), the checkpoint was made with \(recorded)"
        case .host(let expected, let recorded):
            return "host: \(expected), the checkpoint was made with \(recorded)"
        case .port(let expected, let recorded):
            return "port: \(expected), the checkpoint was made with \(recorded)"
        case .path(let expected, let recorded):
            return "path: '\(expected)', the checkpoint was made with '\(recorded)'"
        case .collection(let expected, let recorded):
            return "collection: \(expected), the checkpoint was made for \(recorded)"
        case .channels(let expected, let recorded):
            return "channels: \(Self.list(expected)), the checkpoint was made with \(Self.list(recorded))"
        case .filter(let expected, let recorded):
            return "filter: \(expected ?? "none"), the checkpoint was made with \(recorded ?? "none")"
        case .filterParameters(let expected, let recorded):
            return "filter parameters: \(Self.pairs(expected)), the checkpoint was made with \(Self.pairs(recorded))"
        case .documentIDs(let expected, let recorded):
            return "document IDs: \(Self.list(expected)), the checkpoint was made with \(Self.list(recorded))"
        case .uuid(let recorded, let known):
            return
                "UUID: the checkpoint was made by database UUID \(recorded), which is not this database's (\(known.joined(separator: ", ")))"
        case .uuidNotRegenerated(let recordedPath, let currentPath):
            return
                "UUID not regenerated: the checkpoint was saved by the database at \(recordedPath) with this same private UUID; this one at \(currentPath) is a file copy made without Database.copy, so it is not trusted"
        }
    }

    private static func list(_ items: [String]) -> String {
        items.isEmpty ? "none (all)" : "[" + items.joined(separator: ", ") + "]"
    }

    private static func pairs(_ items: [String: String]) -> String {
        items.isEmpty
            ? "none" : items.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
    }
}
