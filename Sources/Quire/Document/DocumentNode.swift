import Foundation

/// One value inside a document body, as held by mutable containers: plain JSON (containers
/// included, until someone asks for them), or a live mutable container, or a blob.
enum DocumentNode {
    case value(JSONValue)
    case dictionary(MutableDictionaryObject)
    case array(MutableArrayObject)
    case blob(Blob)
    /// A value of a type a document cannot hold; saving reports it with its key path.
    case unsupported(String)

    /// Converts what an app passes to a setter.
    init(any value: Any?) {
        guard let value else {
            self = .value(.null)
            return
        }
        if let node = DocumentNode(commonSwiftValue: value) {
            self = node
            return
        }
        switch value {
        case let node as MutableDictionaryObject: self = .dictionary(node)
        case let node as MutableArrayObject: self = .array(node)
        case let node as DictionaryObject: self = .value(.object(node.jsonObject))
        case let node as ArrayObject: self = .value(.array(node.jsonArray))
        case let blob as Blob: self = .blob(blob)
        case let date as Date: self = .value(.string(ISO8601.string(from: date)))
        case let json as JSONValue: self = .value(json)
        case let dictionary as [String: Any]:
            let mutable = MutableDictionaryObject()
            for (key, element) in dictionary { mutable.setNode(DocumentNode(any: element), forKey: key) }
            self = .dictionary(mutable)
        case let array as [Any]:
            self = .array(MutableArrayObject(nodes: array.map { DocumentNode(any: $0) }))
        default:
            if let json = JSONValue(any: value) {
                self = .value(json)
            } else {
                self = .unsupported(String(describing: type(of: value)))
            }
        }
    }

    /// The values apps pass most, recognised by their exact type before any cast is tried.
    /// On Linux, casting a `String`, an array or a dictionary to a class (as the general
    /// `switch` does first) bridges it to a Foundation object just to fail; for a document
    /// built from `[String: Any]` those failed casts cost more than the save itself.
    private init?(commonSwiftValue value: Any) {
        let type = ObjectIdentifier(Swift.type(of: value))
        switch type {
        case ObjectIdentifier(String.self):
            self = .value(.string(value as! String))
        case ObjectIdentifier(Int.self):
            self = .value(.int(Int64(value as! Int)))
        case ObjectIdentifier(Bool.self):
            self = .value(.bool(value as! Bool))
        case ObjectIdentifier(Double.self):
            let number = value as! Double
            self = number.isFinite ? .value(.double(number)) : .unsupported("Double")
        case ObjectIdentifier(JSONValue.self):
            self = .value(value as! JSONValue)
        case ObjectIdentifier([String: Any].self):
            let dictionary = value as! [String: Any]
            let mutable = MutableDictionaryObject()
            for (key, element) in dictionary { mutable.setNode(DocumentNode(any: element), forKey: key) }
            self = .dictionary(mutable)
        case ObjectIdentifier([Any].self):
            self = .array(MutableArrayObject(nodes: (value as! [Any]).map { DocumentNode(any: $0) }))
        default:
            return nil
        }
    }

    /// The JSON this node stands for; throws invalidParameter naming `path` for a value that
    /// has no JSON form.
    func jsonValue(path: String) throws -> JSONValue {
        switch self {
        case .value(let value): return value
        case .dictionary(let dictionary): return .object(try dictionary.jsonObject(path: path))
        case .array(let array): return .array(try array.jsonArray(path: path))
        case .blob(let blob): return .object(blob.jsonProperties)
        case .unsupported(let type):
            throw QuireError(.invalidParameter, "a document cannot hold a value of type \(type) (at '\(path)')")
        }
    }

    /// What a mutable container's getter returns for this node, and the node to store back
    /// when a nested container was made live (so later changes reach the parent).
    func presented(blobStore: BlobStore?) -> (value: Any?, live: DocumentNode?) {
        switch self {
        case .dictionary(let dictionary): return (dictionary, nil)
        case .array(let array): return (array, nil)
        case .blob(let blob): return (blob, nil)
        case .unsupported: return (nil, nil)
        case .value(let value):
            switch value {
            case .object(let members) where !Blob.isBlob(json: members):
                let live = MutableDictionaryObject(members, blobStore: blobStore)
                return (live, .dictionary(live))
            case .array(let elements):
                let live = MutableArrayObject(elements, blobStore: blobStore)
                return (live, .array(live))
            default:
                return (DictionaryObject.present(value, blobStore: blobStore), nil)
            }
        }
    }

    /// Blobs referenced anywhere below this node.
    func collectBlobs(into blobs: inout [Blob]) {
        switch self {
        case .blob(let blob): blobs.append(blob)
        case .dictionary(let dictionary): dictionary.collectBlobs(into: &blobs)
        case .array(let array): array.collectBlobs(into: &blobs)
        case .value, .unsupported: break
        }
    }
}

extension JSONValue {
    /// The value as an app sees it through `value(forKey:)`: Swift natives for scalars,
    /// `NSNull` for null, and ``DictionaryObject``, ``ArrayObject`` or ``Blob`` for containers.
    var publicValue: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let value): return value
        case .int(let value): return Int(value)
        case .double(let value): return value
        case .string(let value): return value
        case .array(let elements): return ArrayObject(elements)
        case .object(let members):
            if Blob.isBlob(json: members) { return Blob(json: members, store: nil) }
            return DictionaryObject(members)
        }
    }

    /// Plain Swift values all the way down (`[String: Any]`, `[Any]`), blobs as ``Blob``.
    var plainValue: Any {
        switch self {
        case .array(let elements): return elements.map(\.plainValue)
        case .object(let members):
            if Blob.isBlob(json: members) { return Blob(json: members, store: nil) }
            return members.mapValues(\.plainValue)
        default: return publicValue
        }
    }
}
