import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db cat DATABASE ID... [-c COLLECTION] [--rev REV] [--revs] [--json]`.
struct DbCatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Print documents, or their revision trees.",
        discussion: """
            Prints each document's body with a "_meta" member (id, rev, sequence, deleted, \
            expiration), indented; --json prints one line each. --revs prints the revision tree \
            instead: every leaf, the current one first, with its ancestors.

            Example:
              quire db cat travel.quire hotel_1 hotel_2 -c inventory.hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The document IDs.")
    var ids: [String]

    @OptionGroup var collection: DbCollectionOption

    @Option(help: "Print this revision instead of the current one (while it is still stored).")
    var rev: String?

    @Flag(help: "Print the revision tree instead of the body.")
    var revs = false

    @Flag(help: "Print each document as one line of JSON.")
    var json = false

    func validate() throws {
        guard !ids.isEmpty else { throw ValidationError("Give at least one document ID.") }
        if rev != nil, revs { throw ValidationError("--rev and --revs do not go together.") }
    }

    func run() throws {
        try target.with { database in
            let source = try collection.collection(in: database)
            for id in ids {
                let value = revs ? try Self.tree(of: id, in: source) : try document(id, in: source)
                CommandOutput.write(
                    (json ? try CommandJSONText.compact(value) : try CommandJSONText.pretty(value)) + "\n")
            }
        }
    }

    private func document(_ id: String, in source: Collection) throws -> JSONValue {
        let found = try rev.map { try source.document(id: id, revisionID: $0) } ?? source.document(id: id)
        guard let found else {
            if let rev { throw CommandFailure("\(source.fullName) has no revision '\(rev)' of document '\(id)'") }
            if let info = try source.revisionInfo(id: id), info.isDeleted {
                throw CommandFailure("Document '\(id)' in \(source.fullName) is deleted (revision \(info.revisionID))")
            }
            throw CommandFailure("\(source.fullName) has no document '\(id)'")
        }
        var meta: [String: JSONValue] = [
            "id": .string(id), "rev": .string(found.revisionID ?? ""),
            "sequence": .int(Int64(clamping: found.sequence)),
        ]
        if found.isDeleted { meta["deleted"] = .bool(true) }
        if let expiration = try source.getDocumentExpiration(id: id) {
            meta["expiration"] = .string(ISO8601DateFormatter().string(from: expiration))
        }
        var body = try CommandJSONText.body(of: found)
        body["_meta"] = .object(meta)
        return .object(body)
    }

    /// The revision tree of `id`: every leaf, the current one first, with its ancestors.
    static func tree(of id: String, in source: Collection) throws -> JSONValue {
        let leaves = try source.leaves(id: id)
        guard !leaves.isEmpty else { throw CommandFailure("\(source.fullName) has no document '\(id)'") }
        return .object([
            "id": .string(id),
            "leaves": .array(
                leaves.map { leaf in
                    .object([
                        "rev": .string(leaf.revisionID), "current": .bool(leaf.isCurrent),
                        "deleted": .bool(leaf.isDeleted),
                        "ancestors": .array(leaf.ancestors.map(JSONValue.string)),
                    ])
                }),
        ])
    }
}
