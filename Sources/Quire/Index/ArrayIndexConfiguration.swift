/// An array index: the elements of an array in each document, indexed on expressions of each
/// element, for queries that `UNNEST` that array.
///
/// ```swift
/// try collection.createIndex(
///     withName: "contacts", config: ArrayIndexConfiguration(path: "contacts", expressions: ["address.state"]))
/// let query = try database.createQuery(
///     "SELECT p.name, c.address.city FROM profiles AS p UNNEST p.contacts AS c WHERE c.address.state = 'CA'")
/// ```
///
/// The elements are kept in a table of their own, one row per element, filled from the
/// documents already there and kept current as documents change; the expressions are indexed
/// over that table. A query whose `UNNEST` follows the same path reads the table instead of
/// taking each document's array apart, and a condition on an indexed expression searches the
/// index (``Query/explain()`` shows it).
public struct ArrayIndexConfiguration: IndexConfiguration, Equatable {
    /// The path to the array, from the document. `[]` marks an array of arrays to step into:
    /// `contacts[].phones` is the `phones` array of each element of `contacts`. A trailing `[]`
    /// may be left out.
    public let path: String
    /// The indexed expressions, in SQL++, over each element (`address.state` of a contact); nil
    /// indexes the elements themselves (an array of scalars).
    public let expressions: [String]?

    /// An array index over the array at `path`, on `expressions` of its elements, or on the
    /// elements themselves when `expressions` is nil.
    ///
    /// An empty list of expressions, or a single empty one, is refused by
    /// ``Collection/createIndex(withName:config:)`` with ``QuireError/Code/invalidParameter``
    /// (Couchbase Lite raises an exception here): pass nil instead.
    public init(path: String, expressions: [String]? = nil) {
        self.path = path
        self.expressions = expressions
    }
}
