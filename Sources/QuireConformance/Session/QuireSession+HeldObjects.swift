import Foundation
import Quire

/// The held-object steps of ``Step/ContainerOperation`` on the Quire engine: new documents,
/// dictionaries, arrays and blobs made as an app makes them, held across steps, compared and
/// saved.
extension QuireSession {
    /// The document, dictionary, array or blob held under `name`.
    func held(_ name: String) throws -> AnyObject {
        if let document = objects[name] { return document }
        if let value = heldValues[name] { return value }
        let known = Set(objects.keys).union(heldValues.keys).sorted()
        throw EngineError.refusal(
            "noSuchObject",
            "no object is held as '\(name)' (a get, save, toMutable, new... or valueAt step with `as: \(name)` holds one)"
                + (known.isEmpty ? "" : "; held: \(known.joined(separator: ", "))"))
    }

    func heldObject(_ operation: Step.ContainerOperation, holdingAs holder: String?) throws -> SpecValue? {
        switch operation {
        case .newDocument(let id, let body, let json):
            let document: MutableDocument
            if let json {
                document = try MutableDocument(id: id, json: json)
            } else {
                document = MutableDocument(id: id, data: body?.mapValues { $0.jsonValue.anyValue })
            }
            if let holder { objects[holder] = document }
            return try QuireSession.state(of: document)
        case .newContainer(let isArray, let value, let json):
            let container: AnyObject
            if isArray {
                if let json {
                    container = try MutableArrayObject(json: json)
                } else {
                    guard value == nil || value?.arrayValue != nil else {
                        throw EngineError.refusal("invalidParameter", "newArray: 'value' must be a list")
                    }
                    container = MutableArrayObject(data: value?.jsonValue.anyValue as? [Any])
                }
            } else {
                if let json {
                    container = try MutableDictionaryObject(json: json)
                } else {
                    guard value == nil || value?.objectValue != nil else {
                        throw EngineError.refusal("invalidParameter", "newDictionary: 'value' must be a mapping")
                    }
                    container = MutableDictionaryObject(data: value?.jsonValue.anyValue as? [String: Any])
                }
            }
            if let holder { heldValues[holder] = container }
            return try heldState(of: container)
        case .newBlob(let content, let contentType):
            let blob = Blob(contentType: contentType, data: Data(content.utf8))
            if let holder { heldValues[holder] = blob }
            return try QuireBlobs.properties(of: blob)
        case .saveHeldBlob(let name):
            guard let blob = try held(name) as? Blob else {
                throw EngineError.refusal("invalidParameter", "saveBlob: '\(name)' is not a blob")
            }
            try current.saveBlob(blob: blob)
            return try QuireBlobs.properties(of: blob)
        case .same(let name, let other):
            return .bool(try held(name) === held(other))
        case .equals(let name, let other):
            let (left, right) = (try held(name), try held(other))
            switch (left, right) {
            case (let left as Document, let right as Document): return .bool(left == right)
            case (let left as DictionaryObject, let right as DictionaryObject): return .bool(left == right)
            case (let left as ArrayObject, let right as ArrayObject): return .bool(left == right)
            case (let left as Blob, let right as Blob): return .bool(left == right)
            default: return .bool(false)
            }
        default:
            return nil
        }
    }

    /// `toMutable()` of a held dictionary or array; the copy is held under `holder`.
    func mutableCopy(of value: AnyObject, name: String, holdingAs holder: String?) throws -> SpecValue {
        let copy: AnyObject
        switch value {
        case let dictionary as DictionaryObject: copy = dictionary.toMutable()
        case let array as ArrayObject: copy = array.toMutable()
        default: throw EngineError.refusal("invalidParameter", "toMutable: '\(name)' is not a document or container")
        }
        if let holder { heldValues[holder] = copy }
        return try heldState(of: copy)
    }

    /// What `object` gives for a held dictionary, array (its value) or blob (its properties).
    func heldState(of value: AnyObject) throws -> SpecValue {
        try QuireSession.typed(.value, value, fragment: nil)
    }

    /// The Swift value a setter is given: a held object itself, or a plain value converted to
    /// the setter's type.
    func native(_ value: Step.ContainerValue, for setter: Step.Setter) throws -> Any? {
        switch value {
        case .held(let name):
            return try held(name)
        case .plain(let plain):
            let any = plain.jsonValue.anyValue
            let value: Any? = any is NSNull ? nil : any
            switch setter {
            case .date:
                guard let text = value as? String else { return nil }
                guard let date = MutableDocument().setString(text, forKey: "d").date(forKey: "d") else {
                    throw EngineError.refusal("invalidParameter", "setter date: \(JSONText.quote(text)) is not a date")
                }
                return date
            case .array:
                return (value as? [Any]).map { MutableArrayObject(data: $0) }
            case .dictionary:
                return (value as? [String: Any]).map { MutableDictionaryObject(data: $0) }
            default:
                return value
            }
        }
    }
}

/// Calls the typed setter a step names, as an app calls it (`setFloat`, `insertDate`,
/// `addBlob` ...), with a value already converted by ``QuireSession/native(_:for:)``.
enum ContainerSetters {
    enum Mode { case set, insert, add }

    static func set(_ value: Any?, _ setter: Step.Setter, in dictionary: MutableDictionaryProtocol, forKey key: String)
        throws
    {
        switch setter {
        case .value: dictionary.setValue(value, forKey: key)
        case .string: dictionary.setString(try cast(value, setter), forKey: key)
        case .int: dictionary.setInt(Int(try number(value, setter).int64Value), forKey: key)
        case .int64: dictionary.setInt64(try number(value, setter).int64Value, forKey: key)
        case .double: dictionary.setDouble(try number(value, setter).doubleValue, forKey: key)
        case .float: dictionary.setFloat(try number(value, setter).floatValue, forKey: key)
        case .boolean: dictionary.setBoolean(try cast(value, setter) ?? false, forKey: key)
        case .date: dictionary.setDate(try cast(value, setter), forKey: key)
        case .number: dictionary.setNumber(try value.map { try number($0, setter) }, forKey: key)
        case .array: dictionary.setArray(try cast(value, setter), forKey: key)
        case .dictionary: dictionary.setDictionary(try cast(value, setter), forKey: key)
        case .blob: dictionary.setBlob(try cast(value, setter), forKey: key)
        }
    }

    static func set(_ value: Any?, _ setter: Step.Setter, in array: MutableArrayObject, at index: Int, mode: Mode)
        throws
    {
        switch (setter, mode) {
        case (.value, .set): array.setValue(value, at: index)
        case (.value, .insert): array.insertValue(value, at: index)
        case (.value, .add): array.addValue(value)
        case (.string, .set): array.setString(try cast(value, setter), at: index)
        case (.string, .insert): array.insertString(try cast(value, setter), at: index)
        case (.string, .add): array.addString(try cast(value, setter))
        case (.int, .set): array.setInt(Int(try number(value, setter).int64Value), at: index)
        case (.int, .insert): array.insertInt(Int(try number(value, setter).int64Value), at: index)
        case (.int, .add): array.addInt(Int(try number(value, setter).int64Value))
        case (.int64, .set): array.setInt64(try number(value, setter).int64Value, at: index)
        case (.int64, .insert): array.insertInt64(try number(value, setter).int64Value, at: index)
        case (.int64, .add): array.addInt64(try number(value, setter).int64Value)
        case (.double, .set): array.setDouble(try number(value, setter).doubleValue, at: index)
        case (.double, .insert): array.insertDouble(try number(value, setter).doubleValue, at: index)
        case (.double, .add): array.addDouble(try number(value, setter).doubleValue)
        case (.float, .set): array.setFloat(try number(value, setter).floatValue, at: index)
        case (.float, .insert): array.insertFloat(try number(value, setter).floatValue, at: index)
        case (.float, .add): array.addFloat(try number(value, setter).floatValue)
        case (.boolean, .set): array.setBoolean(try cast(value, setter) ?? false, at: index)
        case (.boolean, .insert): array.insertBoolean(try cast(value, setter) ?? false, at: index)
        case (.boolean, .add): array.addBoolean(try cast(value, setter) ?? false)
        case (.date, .set): array.setDate(try cast(value, setter), at: index)
        case (.date, .insert): array.insertDate(try cast(value, setter), at: index)
        case (.date, .add): array.addDate(try cast(value, setter))
        case (.number, .set): array.setNumber(try value.map { try number($0, setter) }, at: index)
        case (.number, .insert): array.insertNumber(try value.map { try number($0, setter) }, at: index)
        case (.number, .add): array.addNumber(try value.map { try number($0, setter) })
        case (.array, .set): array.setArray(try cast(value, setter), at: index)
        case (.array, .insert): array.insertArray(try cast(value, setter), at: index)
        case (.array, .add): array.addArray(try cast(value, setter))
        case (.dictionary, .set): array.setDictionary(try cast(value, setter), at: index)
        case (.dictionary, .insert): array.insertDictionary(try cast(value, setter), at: index)
        case (.dictionary, .add): array.addDictionary(try cast(value, setter))
        case (.blob, .set): array.setBlob(try cast(value, setter), at: index)
        case (.blob, .insert): array.insertBlob(try cast(value, setter), at: index)
        case (.blob, .add): array.addBlob(try cast(value, setter))
        }
    }

    /// The value as the setter's parameter type (nil stays nil).
    private static func cast<T>(_ value: Any?, _ setter: Step.Setter) throws -> T? {
        guard let value else { return nil }
        guard let typed = value as? T else {
            throw EngineError.refusal(
                "invalidParameter", "setter \(setter.rawValue) cannot take \(type(of: value)) (needs \(T.self))")
        }
        return typed
    }

    /// A number (a boolean counts as 0 or 1) for the numeric setters.
    private static func number(_ value: Any?, _ setter: Step.Setter) throws -> NSNumber {
        switch value {
        case let value as Int: return NSNumber(value: value)
        case let value as Int64: return NSNumber(value: value)
        case let value as Double: return NSNumber(value: value)
        case let value as Bool: return NSNumber(value: value)
        default:
            throw EngineError.refusal(
                "invalidParameter",
                "setter \(setter.rawValue) needs a number, not \(value.map { "\(type(of: $0))" } ?? "null")")
        }
    }
}
