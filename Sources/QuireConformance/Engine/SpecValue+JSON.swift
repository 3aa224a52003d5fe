import Quire

extension SpecValue {
    /// The value as Quire's JSON value.
    var jsonValue: JSONValue {
        switch self {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(Int64(number))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(\.jsonValue))
        case .object(let members): return .object(members.mapValues(\.jsonValue))
        }
    }

    /// A spec value from Quire's JSON value.
    init(json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(Int(number))
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(SpecValue.init(json:)))
        case .object(let members): self = .object(members.mapValues(SpecValue.init(json:)))
        }
    }
}
