import Quire

/// `POST /{db}/_revs_diff`: which of the given revisions the target lacks.
///
/// Request `{"docid": ["2-b", "3-c"]}`; response
/// `{"docid": {"missing": ["3-c"], "possible_ancestors": ["2-b"]}}`, listing only documents
/// with something missing.
package enum RevsDiff {
    /// The request: document ID to revision IDs. Document IDs are told apart by their bytes,
    /// as the members of the JSON object they travel in.
    package struct Request: Equatable, Sendable {
        /// Revision IDs the source has, per document.
        package var revisions: [JSONKey: [String]]

        /// A request from its parts.
        package init(revisions: [JSONKey: [String]]) {
            self.revisions = revisions
        }

        /// Reads the request object.
        package init(json: JSONValue) throws {
            guard case .object(let members) = json else {
                throw WireError.invalid("_revs_diff", "expected a JSON object")
            }
            var revisions: [JSONKey: [String]] = [:]
            for (id, list) in members {
                guard let items = list.arrayValue else {
                    throw WireError.invalid("_revs_diff", "the value for '\(id)' must be an array of revision IDs")
                }
                revisions[JSONKey(id)] = try items.map { item in
                    guard let rev = item.stringValue else {
                        throw WireError.invalid("_revs_diff", "the revisions of '\(id)' must be strings")
                    }
                    return rev
                }
            }
            self.init(revisions: revisions)
        }

        /// The JSON form.
        package var json: JSONValue {
            var members = JSONObject(minimumCapacity: revisions.count)
            for (id, list) in revisions { members[id.text] = .array(list.map { .string($0) }) }
            return .object(members)
        }
    }

    /// What the target lacks of one document.
    package struct Entry: Equatable, Sendable {
        /// The revisions the target does not have.
        package var missing: [String]
        /// Leaves the target has that could be ancestors of the missing ones.
        package var possibleAncestors: [String]

        /// An entry from its parts.
        package init(missing: [String], possibleAncestors: [String] = []) {
            self.missing = missing
            self.possibleAncestors = possibleAncestors
        }
    }

    /// The response: document ID to what is missing.
    package struct Response: Equatable, Sendable {
        /// Only documents with missing revisions.
        package var entries: [JSONKey: Entry]

        /// A response from its parts.
        package init(entries: [JSONKey: Entry]) {
            self.entries = entries
        }

        /// Reads the response object.
        package init(json: JSONValue) throws {
            guard case .object(let members) = json else {
                throw WireError.invalid("_revs_diff response", "expected a JSON object")
            }
            var entries: [JSONKey: Entry] = [:]
            for (id, value) in members {
                guard let missing = value["missing"]?.arrayValue else {
                    throw WireError.invalid("_revs_diff response", "'\(id)' has no 'missing' array")
                }
                // A revision that cannot be read must not be dropped quietly: the pusher would
                // then move its checkpoint past a document the target lacks.
                let missingIDs = try missing.map { item in
                    guard let revision = item.stringValue else {
                        throw WireError.invalid(
                            "_revs_diff response", "'missing' of '\(id)' holds a non-string revision")
                    }
                    return revision
                }
                var ancestors: [String] = []
                if let listed = value["possible_ancestors"] {
                    guard let items = listed.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                        throw WireError.invalid(
                            "_revs_diff response", "'possible_ancestors' of '\(id)' must be an array of revision IDs")
                    }
                    ancestors = items.compactMap(\.stringValue)
                }
                entries[JSONKey(id)] = Entry(missing: missingIDs, possibleAncestors: ancestors)
            }
            self.init(entries: entries)
        }

        /// The JSON form; `possible_ancestors` only when there are some.
        package var json: JSONValue {
            var object = JSONObject(minimumCapacity: entries.count)
            for (id, entry) in entries {
                var members: JSONObject = ["missing": .array(entry.missing.map { .string($0) })]
                if !entry.possibleAncestors.isEmpty {
                    members["possible_ancestors"] = .array(entry.possibleAncestors.map { .string($0) })
                }
                object[id.text] = .object(members)
            }
            return .object(object)
        }
    }
}
