import Quire

/// One entry of a remote `_changes` feed.
struct RemoteChange: Sendable, Equatable {
    /// The entry's sequence, opaque.
    let sequence: JSONValue
    let documentID: String
    /// Every leaf revision listed (`style=all_docs`).
    let revisionIDs: [String]
    let isDeleted: Bool
    /// Sync Gateway's `removed`: the user lost access to the document.
    let isRemoved: Bool
}

/// One response of a remote `_changes` feed.
struct ChangesBatch: Sendable {
    let changes: [RemoteChange]
    /// `last_seq`, or the last entry's sequence when absent.
    let lastSequence: JSONValue?

    /// Parses and checks a `_changes` response.
    init(_ body: WireValue) throws {
        let object = try body.object()
        var changes: [RemoteChange] = []
        for entry in try object.required("results").array() {
            let fields = try entry.object()
            let sequence = try RemoteSequence.validate(try fields.required("seq"))
            let id = try RevisionFormat.documentID(try fields.required("id"))
            let revisions = try fields.required("changes").array().map { change in
                try RevisionFormat.revisionID(try change.object().required("rev"))
            }
            guard !revisions.isEmpty else { throw entry.failure("lists no revisions in 'changes'") }
            let deleted = try fields.optional("deleted")?.bool() ?? false
            let removed: Bool
            switch fields.optional("removed")?.value {
            case .none: removed = false
            case .some(.bool(let flag)): removed = flag
            case .some(.array): removed = true
            case .some(let other):
                throw entry.failure("has 'removed' as \(WireValue.describe(other)), expected channel names")
            }
            if id.hasPrefix("_design/") || id.hasPrefix("_local/") { continue }
            changes.append(
                RemoteChange(sequence: sequence, documentID: id, revisionIDs: revisions, isDeleted: deleted, isRemoved: removed))
        }
        self.changes = changes
        lastSequence = try object.optional("last_seq").map { try RemoteSequence.validate($0) } ?? changes.last?.sequence
    }
}
