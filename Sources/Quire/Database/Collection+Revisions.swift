import Foundation

/// A revision that arrives from another database (through replication), with its ancestry.
package struct ForeignRevision: Sendable {
    /// The document ID.
    package var documentID: String
    /// The revision ID, `<generation>-<digest>`.
    package var revisionID: String
    /// Ancestor revision IDs, newest first (CouchDB's `_revisions`), not including
    /// ``revisionID``.
    package var ancestors: [String]
    /// Whether the revision is a deletion (tombstone).
    package var isDeleted: Bool
    /// The body (empty for a tombstone); its keys are told apart by their bytes, as
    /// everywhere in a body (see ``JSONObject``).
    package var body: JSONObject

    /// Makes a revision.
    package init(
        documentID: String, revisionID: String, ancestors: [String], isDeleted: Bool, body: JSONObject
    ) {
        self.documentID = documentID
        self.revisionID = revisionID
        self.ancestors = ancestors
        self.isDeleted = isDeleted
        self.body = body
    }
}

/// What inserting a foreign revision did.
package enum RevisionInsertOutcome: Sendable, Equatable {
    /// The revision (or a descendant of it) was already here.
    case alreadyKnown
    /// The revision was added; `isCurrent` when it became the document's current revision,
    /// `createdConflict` when the document now has more than one live leaf.
    case inserted(isCurrent: Bool, createdConflict: Bool)
}

/// A leaf of a document's revision tree, with its body.
package struct LeafRevision: Sendable, Equatable {
    /// The revision ID.
    package let revisionID: String
    /// Whether the leaf is a tombstone.
    package let isDeleted: Bool
    /// The body.
    package let body: JSONObject
    /// Ancestor revision IDs, newest first.
    package let ancestors: [String]
    /// Whether this leaf is the current (winning) revision.
    package let isCurrent: Bool
}

/// One entry of a collection's changes feed: a document and its current state.
package struct ChangeEntry: Sendable, Equatable {
    /// The document ID.
    package let documentID: String
    /// The sequence of the document's latest change.
    package let sequence: UInt64
    /// The current revision.
    package let revisionID: String
    /// Whether the current revision is a tombstone.
    package let isDeleted: Bool
    /// Every leaf revision ID, the current one first (CouchDB's `style=all_docs`).
    package let leafRevisionIDs: [String]
}

extension Collection {
    private struct TreeRow {
        var revisionID: String
        var isDeleted: Bool
        var history: [String]
        var bodyText: String
    }

    /// The sequence of the latest change in this collection.
    package func lastSequence() throws -> UInt64 {
        try reading { connection in
            try connection.lastSequence(collectionID: id, table: table) ?? 0
        }
    }

    /// Documents changed after `since`, in sequence order, at most `limit` of them.
    package func changes(since: UInt64, limit: Int? = nil) throws -> [ChangeEntry] {
        try changeEntries(
            "sequence > ? ORDER BY sequence", [.integer(Int64(clamping: since)), .integer(Int64(limit ?? -1))])
    }

    /// The change entries of the rows `condition` (a WHERE clause with its ORDER BY, whose
    /// arguments come first in `arguments`, the LIMIT's last) selects.
    func changeEntries(_ condition: String, _ arguments: [SQLiteValue]) throws -> [ChangeEntry] {
        try reading { connection in
            let rows = try connection.query(
                "SELECT key, sequence, flags, revid FROM \(table) WHERE \(condition) LIMIT ?", arguments
            ) { ($0.text(at: 0) ?? "", UInt64($0.int64(at: 1)), $0.int64(at: 2), try $0.revisionID(at: 3)) }
            return try rows.map { key, sequence, flags, revisionID in
                // Closed branches (deleted leaves) count too: style=all_docs lists every leaf.
                let leaves =
                    try [revisionID]
                    + connection.query(
                        "SELECT revid FROM quire_leaves WHERE collection_id = ? AND key = ? ORDER BY revid",
                        [.integer(id), .text(key)]
                    ) { $0.text(at: 0) ?? "" }
                return ChangeEntry(
                    documentID: key, sequence: sequence, revisionID: revisionID,
                    isDeleted: flags & DocumentFlags.deleted != 0, leafRevisionIDs: leaves)
            }
        }
    }

    /// Every leaf of the document's revision tree, the current revision first; empty when the
    /// document has no trace here.
    package func leaves(id: String) throws -> [LeafRevision] {
        try DocumentRules.validate(id: id)
        return try reading { connection in try treeRows(connection, id: id) }.enumerated().map { index, row in
            LeafRevision(
                revisionID: row.revisionID, isDeleted: row.isDeleted, body: try parseBody(row.bodyText, id: id),
                ancestors: row.history, isCurrent: index == 0)
        }
    }

    /// The bytes of the stored bodies of every leaf of document `id` (0 when it has no
    /// trace here): what rendering its revisions starts from, measured in SQLite without
    /// parsing a body.
    package func storedBodyBytes(id: String) throws -> Int {
        try DocumentRules.validate(id: id)
        return try reading { connection in
            let current = try connection.query(
                "SELECT length(CAST(quire_body(body) AS BLOB)) FROM \(table) WHERE key = ?", [.text(id)]
            ) { Int($0.int64(at: 0)) }
            guard let first = current.first else { return 0 }
            let others = try connection.query(
                "SELECT length(CAST(quire_body(body) AS BLOB)) FROM quire_leaves WHERE collection_id = ? AND key = ?",
                [.integer(self.id), .text(id)]
            ) { Int($0.int64(at: 0)) }
            return first + others.reduce(0, +)
        }
    }

    /// The IDs of live leaves other than the current revision: the document's conflicts.
    package func conflictingRevisionIDs(id: String) throws -> [String] {
        try leaves(id: id).filter { !$0.isCurrent && !$0.isDeleted }.map(\.revisionID)
    }

    /// Of `revisionIDs`, those this collection does not have for document `id` (CouchDB's
    /// `_revs_diff`), and the leaves that could be their ancestors. An ID the store would
    /// refuse has nothing stored, so all of `revisionIDs` are missing: a peer's `_revs_diff`
    /// is answered whole, and the upload that follows is refused document by document.
    package func missingRevisions(id: String, revisionIDs: [String]) throws -> (
        missing: [String], possibleAncestors: [String]
    ) {
        let rows = try reading { connection in try treeRows(connection, id: id) }
        var known = Set<String>()
        for row in rows {
            known.insert(row.revisionID)
            known.formUnion(row.history)
        }
        let missing = revisionIDs.filter { !known.contains($0) }
        guard !missing.isEmpty else { return ([], []) }
        let highest = missing.map { RevisionID.generation(of: $0) }.max() ?? 0
        let ancestors = rows.filter { RevisionID.generation(of: $0.revisionID) < highest }.map(\.revisionID)
        return (missing, ancestors)
    }

    /// Adds a revision made elsewhere to the document's tree (CouchDB's `new_edits=false`):
    /// it extends the branch its ancestry names, or starts a new branch (a conflict). The
    /// current revision is then the winning leaf: a live leaf beats a deleted one, then the
    /// higher generation, then the higher revision ID. With `keepingCurrent`, a live current
    /// revision the incoming one does not descend from stays current, as a pull leaves the
    /// local revision current until its conflict is resolved (LiteCore flags the pulled one
    /// as a conflict), so the app reads and edits its own side meanwhile.
    @discardableResult
    package func insert(_ revision: ForeignRevision, keepingCurrent: Bool = false) throws -> RevisionInsertOutcome {
        try DocumentRules.validate(id: revision.documentID)
        // Every ID is checked, ancestors too: they are compared by generation and stored
        // comma-separated, and a document's next edit computes the generation after its own.
        try RevisionID.validate(revision.revisionID, documentID: revision.documentID)
        for ancestor in revision.ancestors { try RevisionID.validate(ancestor, documentID: revision.documentID) }
        if !revision.isDeleted { try DocumentRules.checkReservedKeys(revision.body, id: revision.documentID) }
        let bodyText = try JSONWriter.string(.object(revision.isDeleted ? [:] : revision.body))
        let depth = database.config.maxRevTreeDepth
        return try writing { connection in
            var rows = try treeRows(connection, id: revision.documentID)
            if rows.contains(where: { $0.revisionID == revision.revisionID || $0.history.contains(revision.revisionID) }
            ) {
                return .alreadyKnown
            }
            let incoming = TreeRow(
                revisionID: revision.revisionID, isDeleted: revision.isDeleted,
                history: Array(revision.ancestors.prefix(max(0, depth - 1))), bodyText: bodyText)
            // The incoming revision replaces the leaf it descends from, if any.
            let ancestors = Set(revision.ancestors)
            let previous = rows.first
            rows.removeAll { ancestors.contains($0.revisionID) }
            rows.append(incoming)
            var kept: TreeRow?
            if keepingCurrent, let previous, !previous.isDeleted, !ancestors.contains(previous.revisionID) {
                kept = previous
            }
            try writeTree(connection, id: revision.documentID, rows: rows, winner: kept)
            let current = kept ?? Collection.winner(of: rows)
            let liveLeaves = rows.filter { !$0.isDeleted }.count
            return .inserted(isCurrent: current.revisionID == revision.revisionID, createdConflict: liveLeaves > 1)
        }
    }

    /// Resolves a conflicted document: every live leaf other than the current revision gets a
    /// tombstone child (closing its branch), and the current revision gets a child with
    /// `body` (or a tombstone when `body` is nil). Does nothing for a document without
    /// conflicts when `body` equals the current body.
    package func resolveConflict(id: String, body: JSONObject?) throws {
        try DocumentRules.validate(id: id)
        try writing { connection in
            var rows = try treeRows(connection, id: id)
            guard !rows.isEmpty else { throw QuireError(.notFound, "document '\(id)' not found in \(fullName)") }
            let winner = Collection.winner(of: rows)
            let depth = database.config.maxRevTreeDepth
            rows = try rows.map { row in
                guard row.revisionID != winner.revisionID, !row.isDeleted else { return row }
                let tombstone = try RevisionID.make(
                    parent: row.revisionID, deleted: true, canonicalBody: Array("{}".utf8), documentID: id)
                return TreeRow(
                    revisionID: tombstone, isDeleted: true,
                    history: Array(([row.revisionID] + row.history).prefix(max(0, depth - 1))), bodyText: "{}")
            }
            let newText = try body.map { try JSONWriter.string(.object($0)) } ?? "{}"
            if body == nil || newText != winner.bodyText || winner.isDeleted != (body == nil) {
                let newRevision = try RevisionID.make(
                    parent: winner.revisionID, deleted: body == nil, canonicalBody: Array(newText.utf8), documentID: id)
                rows.removeAll { $0.revisionID == winner.revisionID }
                rows.append(
                    TreeRow(
                        revisionID: newRevision, isDeleted: body == nil,
                        history: Array(([winner.revisionID] + winner.history).prefix(max(0, depth - 1))),
                        bodyText: newText))
            }
            try writeTree(connection, id: id, rows: rows)
        }
    }

    // MARK: Tree storage

    /// The current revision first, then the other leaves.
    private func treeRows(_ connection: Connection, id: String) throws -> [TreeRow] {
        var rows = try connection.query(
            "SELECT revid, flags, history, quire_body(body) FROM \(table) WHERE key = ?", [.text(id)]
        ) {
            TreeRow(
                revisionID: try $0.revisionID(at: 0), isDeleted: $0.int64(at: 1) & DocumentFlags.deleted != 0,
                history: Collection.splitHistory($0.text(at: 2) ?? ""), bodyText: $0.text(at: 3) ?? "{}")
        }
        guard !rows.isEmpty else { return [] }
        rows += try connection.query(
            "SELECT revid, deleted, history, quire_body(body) FROM quire_leaves WHERE collection_id = ? AND key = ? ORDER BY revid",
            [.integer(self.id), .text(id)]
        ) {
            TreeRow(
                revisionID: $0.text(at: 0) ?? "", isDeleted: $0.int64(at: 1) != 0,
                history: Collection.splitHistory($0.text(at: 2) ?? ""), bodyText: $0.text(at: 3) ?? "{}")
        }
        return rows
    }

    /// Stores `rows` as the document's leaves: the winner (`winner`, or by the rule) in the
    /// document table (with a new sequence), the rest in `quire_leaves`.
    private func writeTree(_ connection: Connection, id: String, rows: [TreeRow], winner chosen: TreeRow? = nil) throws
    {
        let winner = chosen ?? Collection.winner(of: rows)
        let others = rows.filter { $0.revisionID != winner.revisionID }
        let conflicted = others.contains { !$0.isDeleted }
        let flags = (winner.isDeleted ? DocumentFlags.deleted : 0) | (conflicted ? DocumentFlags.conflicted : 0)
        let sequence = try nextSequence(connection)
        try connection.run(
            """
            INSERT INTO \(table) (key, sequence, flags, revid, body, history) VALUES (?, ?, ?, ?, quire_body_pack(?), ?)
            ON CONFLICT (key) DO UPDATE SET sequence = excluded.sequence, flags = excluded.flags,
                revid = excluded.revid, body = excluded.body, history = excluded.history
            """,
            [
                .text(id), .integer(Int64(sequence)), .integer(flags), StoredRevisionID.value(winner.revisionID),
                .text(winner.bodyText),
                .text(winner.history.joined(separator: ",")),
            ])
        connection.noteSequenceWritten(collectionID: self.id, sequence: sequence)
        try connection.run(
            "DELETE FROM quire_leaves WHERE collection_id = ? AND key = ?", [.integer(self.id), .text(id)])
        for row in others {
            try connection.run(
                "INSERT INTO quire_leaves (collection_id, key, revid, deleted, body, history) VALUES (?, ?, ?, ?, quire_body_pack(?), ?)",
                [
                    .integer(self.id), .text(id), .text(row.revisionID), .integer(row.isDeleted ? 1 : 0),
                    .text(row.bodyText), .text(row.history.joined(separator: ",")),
                ])
        }
        database.core.recordChange(collectionID: self.id, documentID: id)
    }

    /// CouchDB's deterministic winner: a live leaf beats a deleted one, then the higher
    /// generation, then the higher revision ID compared as bytes.
    private static func winner(of rows: [TreeRow]) -> TreeRow {
        rows.max { lhs, rhs in
            if lhs.isDeleted != rhs.isDeleted { return lhs.isDeleted }
            let (lg, rg) = (RevisionID.generation(of: lhs.revisionID), RevisionID.generation(of: rhs.revisionID))
            if lg != rg { return lg < rg }
            return Array(lhs.revisionID.utf8).lexicographicallyPrecedes(Array(rhs.revisionID.utf8))
        } ?? rows[0]
    }

    private static func splitHistory(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: ",").map(String.init)
    }

    private func parseBody(_ text: String, id: String) throws -> JSONObject {
        guard case .object(let members) = try JSONReader.parse(text) else {
            throw QuireError(
                .corruptRevisionData, "stored body of document '\(id)' in \(fullName) is not a JSON object")
        }
        return members
    }
}
