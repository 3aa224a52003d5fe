/// Decodes the steps on held objects and their containers (``Step/ContainerOperation``):
/// documents, dictionaries, arrays and blobs held across steps.
enum ContainerStepDecoder {
    static func decode(keyword: String, arguments value: SpecValue) throws -> Step? {
        guard Step.ContainerOperation.keywords.contains(keyword) || keyword == "saveBlob" else {
            return nil
        }
        let arguments = try Arguments(keyword: keyword, value)
        switch keyword {
        case "saveBlob":
            guard let name = try arguments.optionalString("object") else { return nil }
            guard arguments["content"] == nil, arguments["contentType"] == nil else {
                throw ArgumentError("saveBlob: 'object' saves a held blob; 'content' and 'contentType' go to newBlob")
            }
            return .container(.saveHeldBlob(object: name))
        default:
            break
        }
        switch keyword {
        case "setValue":
            return .container(
                .set(
                    object: try arguments.string("object"), path: try path(arguments, empty: true),
                    value: try containerValue(arguments), setter: try setter(arguments)))
        case "insertValue":
            return .container(
                .insert(
                    object: try arguments.string("object"), path: try path(arguments, empty: false),
                    value: try containerValue(arguments), setter: try setter(arguments)))
        case "addValue":
            return .container(
                .add(
                    object: try arguments.string("object"), path: try path(arguments, empty: true),
                    value: try containerValue(arguments), setter: try setter(arguments)))
        case "removeValue":
            return .container(.remove(object: try arguments.string("object"), path: try path(arguments, empty: false)))
        case "valueAt":
            let name = try arguments.string("as")
            guard let read = Step.ContainerRead(rawValue: name) else {
                let names = Step.ContainerRead.allCases.map(\.rawValue)
                throw ArgumentError(
                    "valueAt: unknown getter \(JSONText.quote(name))\(Suggestion.didYouMean(name, in: names))")
            }
            return .container(
                .read(object: try arguments.string("object"), path: try path(arguments, empty: true), as: read))
        case "isBlob":
            guard let properties = try arguments.object("properties") else {
                throw ArgumentError("isBlob needs 'properties'")
            }
            return .container(.isBlob(properties: properties))
        case "readBlobBytes":
            guard let properties = try arguments.object("blob") else {
                throw ArgumentError("readBlobBytes needs 'blob'")
            }
            guard let count = try arguments.integer("count"), count >= 0 else {
                throw ArgumentError("readBlobBytes needs 'count', a number of bytes (0 or more)")
            }
            return .container(.readBlobBytes(properties: properties, count: count))
        case "newDocument":
            let json = try arguments.optionalString("json")
            let body = try arguments.object("body")
            guard json == nil || body == nil else {
                throw ArgumentError("newDocument: give 'body' or 'json', not both")
            }
            return .container(.newDocument(id: try arguments.optionalString("id"), body: body, json: json))
        case "newDictionary", "newArray":
            let json = try arguments.optionalString("json")
            guard json == nil || arguments["value"] == nil else {
                throw ArgumentError("\(keyword): give 'value' or 'json', not both")
            }
            return .container(.newContainer(array: keyword == "newArray", value: arguments["value"], json: json))
        case "newBlob":
            return .container(
                .newBlob(
                    content: try arguments.string("content"),
                    contentType: try arguments.optionalString("contentType") ?? "application/octet-stream"))
        case "sameObject":
            return .container(.same(object: try arguments.string("object"), other: try arguments.string("other")))
        case "equals":
            return .container(.equals(object: try arguments.string("object"), other: try arguments.string("other")))
        default:
            return nil
        }
    }

    /// `value:` or `held:` (exactly one).
    private static func containerValue(_ arguments: Arguments) throws -> Step.ContainerValue {
        let held = try arguments.optionalString("held")
        switch (arguments.values["value"], held) {
        case (let value?, nil): return .plain(value)
        case (nil, let name?): return .held(name)
        default: throw ArgumentError("\(arguments.keyword) needs 'value' or 'held' (a held object's name), not both")
        }
    }

    /// `setter:`, `value` when left out.
    private static func setter(_ arguments: Arguments) throws -> Step.Setter {
        guard let name = try arguments.optionalString("setter") else { return .value }
        guard let setter = Step.Setter(rawValue: name) else {
            let names = Step.Setter.allCases.map(\.rawValue)
            throw ArgumentError(
                "\(arguments.keyword): unknown setter \(JSONText.quote(name))\(Suggestion.didYouMean(name, in: names))")
        }
        return setter
    }

    /// `path:` split at dots; empty (the held object itself) only where `empty` allows it.
    private static func path(_ arguments: Arguments, empty: Bool) throws -> [String] {
        let text = try arguments.optionalString("path") ?? ""
        if text.isEmpty {
            guard empty else { throw ArgumentError("\(arguments.keyword) needs 'path', a key path such as a.b.0") }
            return []
        }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !segments.contains("") else {
            throw ArgumentError("\(arguments.keyword): 'path' \(JSONText.quote(text)) has an empty segment")
        }
        return segments
    }
}
