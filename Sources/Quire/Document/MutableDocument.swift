import Foundation

/// A document to create or change, then save with ``Collection/save(document:)``.
///
/// Sendable as its superclass ``Document`` is (Swift does not let a subclass give up a
/// conformance), and honestly so: its body is a ``MutableDictionaryObject``, which locks its
/// content, and the metadata a save updates is behind ``Document``'s lock, so every call is
/// safe from any thread. Two threads editing one document still interleave their edits, as
/// in Couchbase Lite: edit on one thread, save, and pass the saved ``Document`` around.
public final class MutableDocument: Document, MutableDictionaryProtocol, @unchecked Sendable {
    // Safe because its only state of its own is a constant reference to a body that locks
    // itself; the rest is Document's, locked there.
    private let mutableContent: MutableDictionaryObject

    /// A new document with a generated UUID as its ID.
    public convenience init() {
        self.init(id: nil)
    }

    /// A new document with the given ID (a generated UUID when nil).
    public init(id: String?) {
        mutableContent = MutableDictionaryObject()
        super.init(
            id: id ?? UUID().uuidString.lowercased(), revisionID: nil, sequence: 0, isDeleted: false,
            collection: nil, content: mutableContent)
    }

    /// A new document holding `data`, with a generated ID.
    public convenience init(data: [String: Any]?) {
        self.init(id: nil, data: data)
    }

    /// A new document with the given ID holding `data`.
    public convenience init(id: String?, data: [String: Any]?) {
        self.init(id: id)
        if let data { mutableContent.setData(data) }
    }

    /// Couchbase Lite 2.x's name for ``init(id:)``.
    @available(*, deprecated, renamed: "init(id:)", message: "Use MutableDocument(id:) instead.")
    public convenience init(withID id: String?) {
        self.init(id: id)
    }

    /// Couchbase Lite 2.x's name for ``init(id:data:)``.
    @available(*, deprecated, renamed: "init(id:data:)", message: "Use MutableDocument(id:data:) instead.")
    public convenience init(withID id: String?, data: [String: Any]?) {
        self.init(id: id, data: data)
    }

    /// Couchbase Lite 2.x's name for ``init(data:)``.
    @available(*, deprecated, renamed: "init(data:)", message: "Use MutableDocument(data:) instead.")
    public convenience init(withData data: [String: Any]?) {
        self.init(id: nil, data: data)
    }

    /// A new document parsed from a JSON object's text, with a generated ID.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    public convenience init(json: String) throws {
        try self.init(id: nil, json: json)
    }

    /// A new document with the given ID parsed from a JSON object's text.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    public convenience init(id: String?, json: String) throws {
        self.init(id: id)
        try mutableContent.setJSON(json)
    }

    /// A new document whose body is `json`, which the caller has found canonical with
    /// ``CanonicalJSON/isCanonicalObject(_:)``: it is kept as it is, not checked again.
    package convenience init(id: String, checkedCanonicalJSON json: String) {
        self.init(id: id)
        mutableContent.keepCanonicalJSON(json)
    }

    init(copying document: Document) {
        mutableContent = MutableDictionaryObject(document.content.jsonObject, blobStore: document.content.blobStore)
        super.init(
            id: document.id, revisionID: document.revisionID, sequence: document.sequence,
            isDeleted: document.isDeleted, collection: document.collection, content: mutableContent)
    }

    /// The body to save; throws for a value with no JSON form, naming its key path.
    func body() throws -> JSONObject {
        try mutableContent.jsonObject(path: "")
    }

    /// The canonical body taken straight from the JSON text the document was made from, when
    /// nothing has touched it since: the text itself when it was canonical (its top-level
    /// keys then have no `_`, so no reserved key), else written from its tape when its keys
    /// are plain (see ``JSONTape``); nil otherwise, and ``body()`` applies. Checks reserved
    /// keys as a save does.
    func bodyFromUntouchedJSON() throws -> CanonicalBody? {
        switch mutableContent.untouchedBody {
        case .canonical(let text):
            return .text(text)
        case .tape(let tape):
            guard let bytes = tape.canonicalBytes(at: 0) else { return nil }
            try tape.read { reader in
                try DocumentRules.checkReservedKeys(id: id) { reader.member($0, inObjectAt: 0) != nil }
            }
            return .bytes(bytes)
        case nil:
            return nil
        }
    }

    func blobs() -> [Blob] {
        var blobs: [Blob] = []
        mutableContent.collectBlobs(into: &blobs)
        return blobs
    }

    /// A new mutable copy with the same ID and revision; changing it leaves this one as it is.
    public override func toMutable() -> MutableDocument {
        MutableDocument(copying: self)
    }

    /// Sets `value` at `key`.
    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) -> Self {
        mutableContent.setValue(value, forKey: key)
        return self
    }

    /// Removes `key`, so that it reads as missing (not as null); a missing key is left alone.
    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        mutableContent.removeValue(forKey: key)
        return self
    }

    /// Replaces the whole body.
    @discardableResult
    public func setData(_ data: [String: Any]) -> Self {
        mutableContent.setData(data)
        return self
    }

    /// Replaces the whole body with a JSON object's.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    @discardableResult
    public func setJSON(_ json: String) throws -> Self {
        try mutableContent.setJSON(json)
        return self
    }
}
