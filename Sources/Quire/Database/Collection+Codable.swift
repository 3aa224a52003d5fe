import Foundation

/// Codable models as documents, with Couchbase Lite 3.2's names.
///
/// A model is an `Encodable` class (or struct) with a ``DocumentID`` property: saving it
/// fills in its ID and remembers the revision, reading it sets both, so a later save detects
/// the changes made since. A struct without a ``DocumentID`` can be saved too, as a new
/// document each time (``save(from:id:)`` names the ID); a class without one is refused,
/// as Couchbase Lite refuses it, since it could never find its document again.
extension Collection {
    // MARK: Reading

    /// Decodes the document `id` as `T`, or nil when absent or deleted; a ``DocumentID``
    /// property of the model gets the document's ID and revision.
    ///
    /// - Throws: ``QuireError/Code/decodingError`` naming the key path when the body does not
    ///   decode as `T`; ``QuireError/Code/notOpen`` for a deleted collection or a closed database.
    public func document<T: Decodable>(id: String, as type: T.Type) throws -> T? {
        guard let document = try document(id: id) else { return nil }
        return try Self.decodeModel(T.self, from: document)
    }

    static func decodeModel<T: Decodable>(_ type: T.Type, from document: Document) throws -> T {
        let model: T
        do {
            model = try T(from: DocumentValueDecoder(top: .document(document)))
        } catch let error as QuireError {
            throw QuireError(error.code, "document '\(document.id)' does not decode as \(T.self): \(error.message)")
        } catch {
            throw QuireError(.decodingError, "document '\(document.id)' does not decode as \(T.self): \(error)")
        }
        // A model whose decoding skips its ID property (a hand-written init(from:)) still
        // learns which document it came from.
        if let reference = DocumentID.find(in: model), reference.documentID == nil {
            reference.documentID = document.id
            reference.revisionID = document.revisionID
        }
        return model
    }

    // MARK: Saving

    /// Saves `value` as a document (last write wins) and returns it. A model with a
    /// ``DocumentID`` is saved as its document (a new one with a generated ID when the ID is
    /// nil, which the model then holds); a struct without one as a new document with a
    /// generated ID.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a class without a ``DocumentID``;
    ///   ``QuireError/Code/encodingError`` when `value` has no document form; otherwise as
    ///   ``save(document:)``.
    @discardableResult
    public func save<T: Encodable>(from value: T) throws -> Document {
        if DocumentID.find(in: value) == nil, !(type(of: value) is AnyClass) {
            return try save(from: value, id: UUID().uuidString)
        }
        let (reference, document) = try modelDocument(for: value)
        try document.setData(DocumentValueEncoder.body(of: value))
        try save(document: document)
        reference.bind(to: document)
        return document
    }

    /// Encodes `value` and saves it as the document `id` (last write wins); a ``DocumentID``
    /// of `value` is left as it is.
    ///
    /// - Throws: ``QuireError/Code/encodingError`` when `value` has no document form;
    ///   otherwise as ``save(document:)``.
    @discardableResult
    public func save<T: Encodable>(from value: T, id: String) throws -> Document {
        let document = MutableDocument(id: id)
        document.setData(try DocumentValueEncoder.body(of: value))
        try save(document: document)
        return document
    }

    /// Saves the model `object`; with ``ConcurrencyControl/failOnConflict``, returns false and
    /// changes nothing when its document changed since the object was read or saved.
    ///
    /// - Throws: as ``save(from:)``, and ``QuireError/Code/invalidParameter`` for a value
    ///   without a ``DocumentID``.
    @discardableResult
    public func save<T: Encodable>(from object: T, concurrencyControl: ConcurrencyControl) throws -> Bool {
        let (reference, document) = try modelDocument(for: object)
        try document.setData(DocumentValueEncoder.body(of: object))
        guard try save(document: document, concurrencyControl: concurrencyControl) else { return false }
        reference.bind(to: document)
        return true
    }

    /// Saves the model `object`; when its document changed since the object was read or
    /// saved, calls `conflictHandler` with `object` (which it may change) and the stored
    /// document decoded as `T` (nil when deleted). Returning true saves `object` as the handler
    /// left it; false cancels and returns false.
    ///
    /// - Throws: as ``save(from:concurrencyControl:)``, ``QuireError/Code/decodingError`` when
    ///   the stored document does not decode as `T`, and whatever `conflictHandler` throws.
    @discardableResult
    public func save<T: Codable>(from object: T, conflictHandler: (T, T?) throws -> Bool) throws -> Bool {
        let (reference, document) = try modelDocument(for: object)
        try document.setData(DocumentValueEncoder.body(of: object))
        let saved = try save(document: document) { mine, stored in
            let current = try stored.map { try Self.decodeModel(T.self, from: $0) }
            guard try conflictHandler(object, current) else { return false }
            mine.setData(try DocumentValueEncoder.body(of: object))
            return true
        }
        if saved { reference.bind(to: document) }
        return saved
    }

    // MARK: Deleting and purging

    /// Deletes the document of the model `object` (last write wins).
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a value without a ``DocumentID``;
    ///   ``QuireError/Code/notFound`` when its document was never saved; otherwise as
    ///   ``delete(document:)``.
    public func delete<T: Encodable>(for object: T) throws {
        _ = try delete(for: object, concurrencyControl: .lastWriteWins)
    }

    /// Deletes the document of the model `object`; with ``ConcurrencyControl/failOnConflict``,
    /// returns false when the document changed since the object was read or saved.
    ///
    /// - Throws: as ``delete(for:)``.
    @discardableResult
    public func delete<T: Encodable>(for object: T, concurrencyControl: ConcurrencyControl) throws -> Bool {
        let (reference, document) = try modelDocument(for: object)
        guard document.revisionID != nil else {
            throw QuireError(.notFound, "document '\(document.id)' of this \(T.self) is not in \(fullName)")
        }
        guard try delete(document: document, concurrencyControl: concurrencyControl) else { return false }
        reference.bind(to: document)
        return true
    }

    /// Purges the document of the model `object`.
    ///
    /// - Throws: ``QuireError/Code/invalidParameter`` for a value without a ``DocumentID``;
    ///   ``QuireError/Code/notFound`` when its ID is nil or no document has it.
    public func purge<T: Encodable>(for object: T) throws {
        guard let reference = DocumentID.find(in: object) else { throw Self.noDocumentID(T.self) }
        guard let id = reference.documentID else {
            throw QuireError(.notFound, "this \(T.self) has no document ID, so it has no document to purge")
        }
        try purge(id: id)
        reference.revisionID = nil
    }

    private static func noDocumentID<T>(_ type: T.Type) -> QuireError {
        QuireError(.invalidParameter, "\(T.self) has no @DocumentID property, so it cannot stand for a document")
    }

    /// The model's ``DocumentID`` and a document to write it into, based on the revision the
    /// model was read or saved at (or the current one when it knows none), so a save or
    /// delete sees changes made since.
    private func modelDocument<T>(for object: T) throws -> (DocumentID, MutableDocument) {
        guard let reference = DocumentID.find(in: object) else { throw Self.noDocumentID(T.self) }
        let document = MutableDocument(id: reference.documentID)
        let base: String?
        if let revisionID = reference.revisionID {
            base = revisionID
        } else if let id = reference.documentID, let info = try revisionInfo(id: id), !info.isDeleted {
            base = info.revisionID
        } else {
            base = nil
        }
        if let base { document.updateMetadata(revisionID: base, sequence: 0, collection: self, isDeleted: false) }
        return (reference, document)
    }
}

extension DocumentID {
    /// Remembers the document a save or delete wrote.
    fileprivate func bind(to document: Document) {
        documentID = document.id
        revisionID = document.revisionID
    }
}
