import Foundation

/// A model object that can be saved as a document: `Encodable`, a class, with a
/// ``DocumentID`` property. Couchbase Lite's name.
public typealias DocumentEncodable = Encodable & AnyObject
/// A model object that can be read from a document: `Decodable`, a class. Couchbase Lite's name.
public typealias DocumentDecodable = Decodable & AnyObject
/// A model object that can be saved and read back as a document. Couchbase Lite's name.
public typealias DocumentCodable = Codable & AnyObject

/// Marks the property of a `Codable` model that holds its document's ID.
///
/// ```swift
/// final class Profile: Codable {
///     @DocumentID var id: String?
///     var name: String
/// }
/// try collection.save(from: profile)          // profile.id is set
/// let again = try collection.document(id: profile.id!, as: Profile.self)
/// ```
///
/// The ID is not stored in the document's body: a save fills it in (a generated UUID when it
/// was nil), and reading a document sets it from the document. The wrapper also remembers the
/// revision the object was read or saved at, so that a save with
/// ``ConcurrencyControl/failOnConflict`` or a conflict handler sees changes made since.
/// Inside another value (a model nested in a model) or in a query result, the ID is an
/// ordinary optional string.
///
/// Where Couchbase Lite stops the process when an app changes the ID of an object that was
/// saved, Quire lets it: the object then stands for a new document with that ID.
@propertyWrapper
public final class DocumentID: Codable {
    var documentID: String?
    /// The revision the object was read or saved at; nil for an object never stored.
    var revisionID: String?

    /// The document ID; setting a different one forgets the revision the object was read at.
    public var wrappedValue: String? {
        get { documentID }
        set {
            if newValue != documentID { revisionID = nil }
            documentID = newValue
        }
    }

    /// A wrapper holding `wrappedValue` (nil: a new document, whose ID a save generates).
    public init(wrappedValue: String?) {
        documentID = wrappedValue
    }

    init(documentID: String?, revisionID: String?) {
        self.documentID = documentID
        self.revisionID = revisionID
    }

    /// Reads the ID as an optional string (a nested model, a query result, other decoders).
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(String.self))
    }

    /// Writes the ID as an optional string; at the top of a document body it is left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let documentID { try container.encode(documentID) } else { try container.encodeNil() }
    }

    /// The ``DocumentID`` among `object`'s stored properties (its class's first, then its
    /// superclasses'), or nil.
    static func find(in object: Any) -> DocumentID? {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                if let found = child.value as? DocumentID { return found }
            }
            mirror = current.superclassMirror
        }
        return nil
    }
}
