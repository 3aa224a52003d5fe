import Foundation
import Quire

/// The `getValue` step on the Quire engine: one property through one typed getter.
enum QuireTypedReads {
    static func value(_ read: Step.TypedRead, in collection: Collection) throws -> SpecValue {
        guard let document = try collection.document(id: read.document.id) else {
            throw EngineError.refusal(
                "notFound",
                "document '\(read.document.id)' not found in \(collection.fullName), so there is no object to read")
        }
        let key = read.key
        switch read.type {
        case .int: return .int(document.int(forKey: key))
        case .int64: return .int(Int(document.int64(forKey: key)))
        case .double: return .double(document.double(forKey: key))
        case .float: return .double(Double(document.float(forKey: key)))
        case .boolean: return .bool(document.boolean(forKey: key))
        case .string: return document.string(forKey: key).map(SpecValue.string) ?? .null
        case .date:
            // The date goes back through the store's own writer, so the text is the form the
            // store keeps dates in, whatever form the property was written in.
            guard let date = document.date(forKey: key) else { return .null }
            return MutableDocument().setDate(date, forKey: "date").string(forKey: "date").map(SpecValue.string) ?? .null
        case .array: return try document.array(forKey: key).map { try json($0.toJSON()) } ?? .null
        case .dictionary: return try document.dictionary(forKey: key).map { try json($0.toJSON()) } ?? .null
        case .blob: return try document.blob(forKey: key).map(QuireBlobs.properties(of:)) ?? .null
        case .number:
            guard let number = document.number(forKey: key) else { return .null }
            return document.value(forKey: key) is Double || document.value(forKey: key) is Float
                ? .double(number.doubleValue) : .int(number.intValue)
        }
    }

    private static func json(_ text: String) throws -> SpecValue {
        SpecValue(json: try JSONReader.parse(text))
    }
}
