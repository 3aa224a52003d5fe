import Foundation
import Quire

/// The body of a `_changes` response: `{"results": [...], "last_seq": ...}`, and the lines of
/// a continuous feed (one entry per line, then `{"last_seq": ...}`).
package struct ChangesResponse: Equatable, Sendable {
    /// One changed document.
    package struct Entry: Equatable, Sendable {
        /// The sequence of the change.
        package var sequence: ChangesSequence
        /// The document ID.
        package var id: String
        /// The revisions listed under `changes`: the current one, or every leaf with
        /// `style=all_docs`.
        package var revisionIDs: [String]
        /// Whether the current revision is a tombstone.
        package var isDeleted: Bool
        /// The document, with `include_docs=true`.
        package var document: JSONValue?
        /// Sync Gateway's `removed` list: channels the document left.
        package var removedFrom: [String]?

        /// An entry from its parts.
        package init(
            sequence: ChangesSequence, id: String, revisionIDs: [String], isDeleted: Bool,
            document: JSONValue? = nil, removedFrom: [String]? = nil
        ) {
            self.sequence = sequence
            self.id = id
            self.revisionIDs = revisionIDs
            self.isDeleted = isDeleted
            self.document = document
            self.removedFrom = removedFrom
        }

        /// Reads `{"seq", "id", "changes": [{"rev"}], "deleted"?, "doc"?, "removed"?}`.
        package init(json: JSONValue) throws {
            guard let id = json["id"]?.stringValue else {
                throw WireError.invalid("changes entry", "has no string 'id'")
            }
            guard let seq = json["seq"] else { throw WireError.invalid("changes entry '\(id)'", "has no 'seq'") }
            guard let changes = json["changes"]?.arrayValue else {
                throw WireError.invalid("changes entry '\(id)'", "has no 'changes' array")
            }
            var revisions: [String] = []
            for change in changes {
                guard let rev = change["rev"]?.stringValue else {
                    throw WireError.invalid("changes entry '\(id)'", "a change has no string 'rev'")
                }
                revisions.append(rev)
            }
            self.init(
                sequence: try ChangesSequence(json: seq), id: id, revisionIDs: revisions,
                isDeleted: json["deleted"]?.boolValue ?? false, document: json["doc"],
                removedFrom: json["removed"]?.arrayValue?.compactMap(\.stringValue))
        }

        /// The JSON form.
        package var json: JSONValue {
            var members: JSONObject = [
                "seq": sequence.value,
                "id": .string(id),
                "changes": .array(revisionIDs.map { .object(["rev": .string($0)]) }),
            ]
            if isDeleted { members["deleted"] = .bool(true) }
            if let document { members["doc"] = document }
            if let removedFrom { members["removed"] = .array(removedFrom.map { .string($0) }) }
            return .object(members)
        }
    }

    /// The changes, in sequence order.
    package var results: [Entry]
    /// Where the next request should start.
    package var lastSequence: ChangesSequence

    /// A response from its parts.
    package init(results: [Entry], lastSequence: ChangesSequence) {
        self.results = results
        self.lastSequence = lastSequence
    }

    /// Reads a normal or longpoll response.
    package init(json: JSONValue) throws {
        guard let results = json["results"]?.arrayValue else {
            throw WireError.invalid("changes response", "has no 'results' array")
        }
        guard let last = json["last_seq"] else { throw WireError.invalid("changes response", "has no 'last_seq'") }
        self.init(results: try results.map(Entry.init(json:)), lastSequence: try ChangesSequence(json: last))
    }

    /// The JSON form of a normal or longpoll response.
    package var json: JSONValue {
        .object(["results": .array(results.map(\.json)), "last_seq": lastSequence.value])
    }

    /// The last line of a continuous feed.
    package static func lastSequenceLine(_ sequence: ChangesSequence) -> JSONValue {
        .object(["last_seq": sequence.value])
    }

    /// One line of a continuous feed: an entry, the closing `last_seq`, or nil for a heartbeat
    /// (an empty line).
    package enum ContinuousLine: Equatable, Sendable {
        /// A change.
        case change(Entry)
        /// The feed ended here.
        case end(lastSequence: ChangesSequence)
    }

    /// Reads one line of a continuous feed; nil for a blank (heartbeat) line.
    package static func parseContinuousLine(_ line: some StringProtocol) throws -> ContinuousLine? {
        let text = line.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        let json = try WireJSON.parse(String(text))
        if json["id"] == nil, let last = json["last_seq"] {
            return .end(lastSequence: try ChangesSequence(json: last))
        }
        return .change(try Entry(json: json))
    }
}
