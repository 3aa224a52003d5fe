extension Step {
    /// A step on the containers of a held document object (`as:` on `get`, `save` or
    /// `toMutable`): nested dictionaries and arrays reached by a key path whose segments are
    /// keys, or indexes into arrays (`address.lines.0`).
    public enum ContainerOperation: Sendable, Hashable {
        /// `setValue`: sets the value at the path (a key of a dictionary, or an existing index
        /// of an array); returns nothing.
        case set(object: String, path: [String], value: SpecValue)
        /// `removeValue`: removes the key or the array element at the path; returns nothing.
        case remove(object: String, path: [String])
        /// `insertValue`: inserts into the array at the path's parent, at the last segment's
        /// index (0 through the count); returns nothing.
        case insert(object: String, path: [String], value: SpecValue)
        /// `valueAt`: reads the value at the path (empty: the document) with a getter.
        case read(object: String, path: [String], as: ContainerRead)
        /// `isBlob`: `Blob.isBlob(properties:)` on a mapping; returns a boolean.
        case isBlob(properties: [String: SpecValue])
        /// `readBlobBytes`: reads at most `count` bytes of a blob's content through its
        /// content stream; returns them as text, or null when the content is not stored.
        case readBlobBytes(properties: [String: SpecValue], count: Int)

        /// The step's name in spec files.
        public var keyword: String {
            switch self {
            case .set: return "setValue"
            case .remove: return "removeValue"
            case .insert: return "insertValue"
            case .read: return "valueAt"
            case .isBlob: return "isBlob"
            case .readBlobBytes: return "readBlobBytes"
            }
        }

        /// Every keyword of these steps.
        public static let keywords: Set<String> = [
            "setValue", "removeValue", "insertValue", "valueAt", "isBlob", "readBlobBytes",
        ]
    }

    /// What `valueAt` reads.
    public enum ContainerRead: String, Sendable, Hashable, CaseIterable {
        /// The typed getters, as `getValue` names them.
        case int, int64, double, float, boolean, string, date, array, dictionary, blob, number
        /// The value as a plain value (containers as mappings and lists), or null.
        case value
        /// A dictionary's or array's `count` (the document's: its top-level keys).
        case count
        /// A dictionary's keys in the order its `keys` gives them.
        case keys
        /// Whether the parent dictionary `contains(key:)` the last segment (an array: whether
        /// the index is in range).
        case contains
        /// `toJSON()` of the dictionary or array at the path (the document's own when empty).
        case json
    }
}
