import Foundation
import Quire

/// The container steps (``Step/ContainerOperation``) on the Quire engine: a held document's
/// nested dictionaries and arrays changed and read through their own API, as an app does.
extension QuireSession {
    func container(_ operation: Step.ContainerOperation, holdingAs holder: String?) throws -> SpecValue? {
        switch operation {
        case .set(let name, let path, let value, let setter):
            if path.isEmpty { return try setData(value, in: name) }
            let (parent, last) = try mutableParent(of: path, in: name)
            let native = try self.native(value, for: setter)
            if let array = parent as? MutableArrayObject {
                let index = try QuireSession.index(last, in: array.count, path: path, inserting: false)
                try ContainerSetters.set(native, setter, in: array, at: index, mode: .set)
            } else if let dictionary = parent as? MutableDictionaryProtocol {
                try ContainerSetters.set(native, setter, in: dictionary, forKey: last)
            }
            return nil
        case .remove(let name, let path):
            let (parent, last) = try mutableParent(of: path, in: name)
            if let array = parent as? MutableArrayObject {
                array.removeValue(at: try QuireSession.index(last, in: array.count, path: path, inserting: false))
            } else if let dictionary = parent as? MutableDictionaryProtocol {
                dictionary.removeValue(forKey: last)
            }
            return nil
        case .insert(let name, let path, let value, let setter):
            let (parent, last) = try mutableParent(of: path, in: name)
            guard let array = parent as? MutableArrayObject else {
                throw EngineError.refusal(
                    "invalidParameter", "insertValue: \(path.dropLast().joined(separator: ".")) is not an array")
            }
            let index = try QuireSession.index(last, in: array.count, path: path, inserting: true)
            try ContainerSetters.set(try native(value, for: setter), setter, in: array, at: index, mode: .insert)
            return nil
        case .add(let name, let path, let value, let setter):
            let target = try mutableContainer(at: path, in: name)
            guard let array = target as? MutableArrayObject else {
                throw EngineError.refusal(
                    "invalidParameter", "addValue: \(path.isEmpty ? name : path.joined(separator: ".")) is not an array"
                )
            }
            try ContainerSetters.set(try native(value, for: setter), setter, in: array, at: array.count, mode: .add)
            return nil
        case .read(let name, let path, let getter):
            let root = try held(name)
            if let holder, let value = try QuireSession.value(at: path, in: root),
                value is DictionaryObject || value is ArrayObject || value is Blob
            {
                heldValues[holder] = value as AnyObject
            }
            return try read(getter, at: path, in: root)
        case .isBlob(let properties):
            return .bool(Blob.isBlob(properties: properties.mapValues { $0.jsonValue.anyValue as Any }))
        case .readBlobBytes(let properties, let count):
            guard let blob = try current.getBlob(properties: properties.mapValues { $0.jsonValue.anyValue as Any }),
                let stream = blob.contentStream
            else { return .null }
            stream.open()
            defer { stream.close() }
            var bytes = [UInt8](repeating: 0, count: count)
            var filled = 0
            while filled < count {
                let read = bytes.withUnsafeMutableBufferPointer { buffer in
                    stream.read(buffer.baseAddress! + filled, maxLength: count - filled)
                }
                if read == 0 { break }
                if read < 0 {
                    throw stream.streamError ?? QuireError(.ioError, "reading blob \(blob.digest ?? "") failed")
                }
                filled += read
            }
            return .string(String(decoding: bytes[0..<filled], as: UTF8.self))
        default:
            return try heldObject(operation, holdingAs: holder)
        }
    }

    /// `setData` of a held document, dictionary or array: the whole content replaced.
    private func setData(_ value: Step.ContainerValue, in name: String) throws -> SpecValue? {
        let target = try mutableContainer(at: [], in: name)
        let content = try native(value, for: .value)
        switch (target, content) {
        case (let document as MutableDocument, let data as [String: Any]): document.setData(data)
        case (let dictionary as MutableDictionaryObject, let data as [String: Any]): dictionary.setData(data)
        case (let array as MutableArrayObject, let data as [Any]): array.setData(data)
        default:
            throw EngineError.refusal(
                "invalidParameter",
                "setValue without a path replaces '\(name)' whole: give a mapping or a list to match it")
        }
        return nil
    }

    /// The container holding the path's last segment, and that segment; the object must be
    /// mutable (a `save`'s, a `toMutable`'s or a `new...`'s).
    private func mutableParent(of path: [String], in name: String) throws -> (Any, String) {
        (try mutableContainer(at: Array(path.dropLast()), in: name), path[path.count - 1])
    }

    /// The mutable container at `path` (empty: the held object itself).
    private func mutableContainer(at path: [String], in name: String) throws -> Any {
        let root = try held(name)
        guard root is MutableDocument || root is MutableDictionaryObject || root is MutableArrayObject else {
            throw EngineError.refusal(
                "notMutable", "'\(name)' is immutable (\(type(of: root))); make a copy with toMutable first")
        }
        var container: Any = root
        for (offset, segment) in path.enumerated() {
            let reached = path[0...offset].joined(separator: ".")
            let next: Any?
            if let array = container as? MutableArrayObject {
                next = array.value(
                    at: try QuireSession.index(
                        segment, in: array.count, path: Array(path[0...offset]), inserting: false))
            } else if let dictionary = container as? MutableDictionaryProtocol {
                next = dictionary.value(forKey: segment)
            } else {
                next = nil
            }
            guard let next, next is MutableArrayObject || next is MutableDictionaryObject else {
                throw EngineError.refusal("invalidParameter", "\(reached) is not a dictionary or an array of '\(name)'")
            }
            container = next
        }
        return container
    }

    /// An array index from a path segment. Couchbase Lite raises an exception for an index out
    /// of range (`Array index out of range`); Quire's setters ignore it, so the step refuses it
    /// before asking, with outOfRange.
    private static func index(_ segment: String, in count: Int, path: [String], inserting: Bool) throws -> Int {
        guard let index = Int(segment) else {
            throw EngineError.refusal(
                "invalidParameter", "\(path.joined(separator: ".")): '\(segment)' is not an array index")
        }
        guard index >= 0, inserting ? index <= count : index < count else {
            throw EngineError.refusal(
                "outOfRange", "\(path.joined(separator: ".")): index \(index) is out of range for an array of \(count)")
        }
        return index
    }

    /// A spec value as the plain value a setter takes (mappings and lists as Swift ones).
    private static func native(_ value: SpecValue) -> Any? {
        let plain = value.jsonValue.anyValue
        return plain is NSNull ? nil : plain
    }

    /// The value at `path` read with `value(forKey:)` and `value(at:)` (empty: `root`).
    static func value(at path: [String], in root: AnyObject) throws -> Any? {
        var current: Any = root
        for segment in path {
            let next: Any?
            if let array = current as? ArrayProtocol {
                next = Int(segment).flatMap { $0 >= 0 && $0 < array.count ? array.value(at: $0) : nil }
            } else if let dictionary = current as? DictionaryProtocol {
                next = dictionary.value(forKey: segment)
            } else {
                next = nil
            }
            guard let next else { return nil }
            current = next
        }
        return current
    }

    private func read(_ getter: Step.ContainerRead, at path: [String], in root: AnyObject) throws -> SpecValue {
        // Walk to the parent with the read-side API; the last segment goes to the parent's own
        // typed getter, as `dictionary.int(forKey:)` or `array.int(at:)`.
        guard let parent = try Self.value(at: Array(path.dropLast()), in: root) else { return getter.missing }
        let target: Any?
        if let last = path.last {
            if getter == .contains {
                if let dictionary = parent as? DictionaryProtocol { return .bool(dictionary.contains(key: last)) }
                if let array = parent as? ArrayProtocol {
                    return .bool(Int(last).map { $0 >= 0 && $0 < array.count } ?? false)
                }
                return .bool(false)
            }
            if let array = parent as? ArrayProtocol {
                guard let index = Int(last), index >= 0, index < array.count else { return getter.missing }
                return try QuireSession.typed(getter, array.value(at: index), fragment: array[index])
            }
            guard let dictionary = parent as? DictionaryProtocol else { return getter.missing }
            target = dictionary.value(forKey: last)
            return try QuireSession.typed(getter, target, fragment: dictionary[last])
        }
        return try QuireSession.typed(getter, root, fragment: nil)
    }

    /// One getter's result for `value` (the fragment gives the typed getters' conversions).
    static func typed(_ getter: Step.ContainerRead, _ value: Any?, fragment: Fragment?) throws -> SpecValue {
        switch getter {
        case .int: return .int(fragment?.int ?? 0)
        case .int64: return .int(Int(fragment?.int64 ?? 0))
        case .double: return .double(fragment?.double ?? 0)
        case .float: return .double(Double(Float(fragment?.double ?? 0)))
        case .boolean: return .bool(fragment?.boolean ?? false)
        case .string: return (value as? String).map(SpecValue.string) ?? .null
        case .date:
            guard let date = fragment?.date else { return .null }
            return MutableDocument().setDate(date, forKey: "date").string(forKey: "date").map(SpecValue.string) ?? .null
        case .array: return try (value as? ArrayProtocol).map { try json($0.toJSON()) } ?? .null
        case .dictionary: return try (value as? DictionaryProtocol).map { try json($0.toJSON()) } ?? .null
        case .blob: return try (value as? Blob).map(QuireBlobs.properties(of:)) ?? .null
        case .number:
            guard let number = fragment.flatMap({ TypedNumber.of($0) }) else { return .null }
            return number
        case .value:
            if let blob = value as? Blob { return try QuireBlobs.properties(of: blob) }
            if let array = value as? ArrayProtocol { return try json(array.toJSON()) }
            if let dictionary = value as? DictionaryProtocol { return try json(dictionary.toJSON()) }
            if let document = value as? Document { return try json(document.toJSON()) }
            return JSONValue(any: value as Any).map(SpecValue.init(json:)) ?? .null
        case .count:
            if let array = value as? ArrayProtocol { return .int(array.count) }
            if let dictionary = value as? DictionaryProtocol { return .int(dictionary.count) }
            if let document = value as? Document { return .int(document.count) }
            return .null
        case .keys:
            if let dictionary = value as? DictionaryProtocol { return .array(dictionary.keys.map(SpecValue.string)) }
            if let document = value as? Document { return .array(document.keys.map(SpecValue.string)) }
            return .null
        case .contains: return .bool(value != nil)
        case .json:
            if let array = value as? ArrayProtocol { return .string(array.toJSON()) }
            if let dictionary = value as? DictionaryProtocol { return .string(dictionary.toJSON()) }
            if let document = value as? Document { return .string(document.toJSON()) }
            if let blob = value as? Blob { return .string(blob.toJSON()) }
            return .null
        case .content:
            guard let data = (value as? Blob)?.content else { return .null }
            return .string(String(decoding: data, as: UTF8.self))
        case .enumerated:
            if let array = value as? ArrayObject {
                return .array(try array.map { try typed(.value, $0, fragment: nil) })
            }
            if let dictionary = value as? DictionaryObject { return .array(dictionary.map(SpecValue.string)) }
            if let document = value as? Document { return .array(document.map(SpecValue.string)) }
            return .null
        }
    }

    private static func json(_ text: String) throws -> SpecValue {
        SpecValue(json: try JSONReader.parse(text))
    }
}

extension Step.ContainerRead {
    /// What a getter gives for a path that leads nowhere: the typed getters' defaults.
    var missing: SpecValue {
        switch self {
        case .int, .int64, .count: return self == .count ? .null : .int(0)
        case .double, .float: return .double(0)
        case .boolean, .contains: return .bool(false)
        default: return .null
        }
    }
}

/// `number(forKey:)` as a spec value: doubles stay doubles, the rest (booleans as 0 or 1) are
/// integers.
enum TypedNumber {
    static func of(_ fragment: Fragment) -> SpecValue? {
        guard fragment.exists else { return nil }
        if fragment.value is Double || fragment.value is Float { return .double(fragment.double) }
        guard fragment.value is Int || fragment.value is Int64 || fragment.value is Bool || fragment.value is NSNumber
        else {
            return nil
        }
        return .int(Int(fragment.int64))
    }
}
