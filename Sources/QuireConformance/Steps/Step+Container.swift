extension Step {
    /// A step on the containers of a held document object (`as:` on `get`, `save` or
    /// `toMutable`): nested dictionaries and arrays reached by a key path whose segments are
    /// keys, or indexes into arrays (`address.lines.0`).
    package enum ContainerOperation: Sendable, Hashable {
        /// `setValue`: sets the value at the path (a key of a dictionary, or an existing index
        /// of an array) with a setter; returns nothing.
        case set(object: String, path: [String], value: ContainerValue, setter: Setter)
        /// `removeValue`: removes the key or the array element at the path; returns nothing.
        case remove(object: String, path: [String])
        /// `insertValue`: inserts into the array at the path's parent, at the last segment's
        /// index (0 through the count), with a setter; returns nothing.
        case insert(object: String, path: [String], value: ContainerValue, setter: Setter)
        /// `addValue`: appends to the array at the path (empty: the held array itself) with a
        /// setter; returns nothing.
        case add(object: String, path: [String], value: ContainerValue, setter: Setter)
        /// `newDocument`: a new, unsaved mutable document (`MutableDocument(id:data:)` or
        /// `MutableDocument(id:json:)`), held under the step's `as:`; returns its state.
        case newDocument(id: String?, body: [String: SpecValue]?, json: String?)
        /// `newDictionary` / `newArray`: a new mutable container, empty, from a value
        /// (`MutableDictionaryObject(data:)`) or from JSON text (`init(json:)`), held under the
        /// step's `as:`; returns its value.
        case newContainer(array: Bool, value: SpecValue?, json: String?)
        /// `newBlob`: a new blob holding UTF-8 text in memory, not saved, held under the step's
        /// `as:`; returns its properties.
        case newBlob(content: String, contentType: String)
        /// `saveBlob` with `object`: saves a held blob into the current database
        /// (`Database.saveBlob(blob:)`); returns its properties.
        case saveHeldBlob(object: String)
        /// `sameObject`: whether two held names hold the very same object (`===`).
        case same(object: String, other: String)
        /// `equals`: whether two held objects are equal (`==`): documents, dictionaries,
        /// arrays or blobs.
        case equals(object: String, other: String)
        /// `valueAt`: reads the value at the path (empty: the document) with a getter.
        case read(object: String, path: [String], as: ContainerRead)
        /// `isBlob`: `Blob.isBlob(properties:)` on a mapping; returns a boolean.
        case isBlob(properties: [String: SpecValue])
        /// `readBlobBytes`: reads at most `count` bytes of a blob's content through its
        /// content stream; returns them as text, or null when the content is not stored.
        case readBlobBytes(properties: [String: SpecValue], count: Int)

        /// The step's name in spec files.
        package var keyword: String {
            switch self {
            case .set: return "setValue"
            case .remove: return "removeValue"
            case .insert: return "insertValue"
            case .add: return "addValue"
            case .newDocument: return "newDocument"
            case .newContainer(let array, _, _): return array ? "newArray" : "newDictionary"
            case .newBlob: return "newBlob"
            case .saveHeldBlob: return "saveBlob"
            case .same: return "sameObject"
            case .equals: return "equals"
            case .read: return "valueAt"
            case .isBlob: return "isBlob"
            case .readBlobBytes: return "readBlobBytes"
            }
        }

        /// Every keyword of these steps (`saveBlob` only with `object`).
        package static let keywords: Set<String> = [
            "setValue", "removeValue", "insertValue", "addValue", "valueAt", "isBlob", "readBlobBytes",
            "newDocument", "newDictionary", "newArray", "newBlob", "sameObject", "equals",
        ]
    }

    /// What `setValue`, `insertValue` and `addValue` store.
    package enum ContainerValue: Sendable, Hashable {
        /// A plain value (a mapping or list makes a nested container).
        case plain(SpecValue)
        /// The object held under that name itself (a dictionary, an array or a blob), as an app
        /// passes the object it holds.
        case held(String)
    }

    /// The setter a change calls, named after its type (`setInt`, `insertFloat`, `addDate` ...);
    /// `value` is `setValue(_:forKey:)` itself.
    package enum Setter: String, Sendable, Hashable, CaseIterable {
        case value, string, int, int64, double, float, boolean, date, number, array, dictionary, blob
    }

    /// What `valueAt` reads.
    package enum ContainerRead: String, Sendable, Hashable, CaseIterable {
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
        /// `toJSON()` of the dictionary, array or blob at the path (the document's own when
        /// empty).
        case json
        /// A blob's `content` as UTF-8 text, or null when it cannot be read (not stored, or not
        /// reachable from an object that belongs to no database).
        case content
        /// What `for item in container` gives, in order: a dictionary's or document's keys, an
        /// array's elements.
        case enumerated
    }
}
