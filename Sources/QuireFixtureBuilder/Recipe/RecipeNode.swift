import Quire
import QuireFixtures
import Yams

/// A node of a recipe's YAML with where it stands (file, line, column, key path), so that
/// every complaint about it can say exactly where to look.
struct RecipeNode {
    let node: Node
    /// The key path from the top, such as `collections[0].indexes[1].name`; empty at the top.
    let path: String
    let fileName: String

    /// `file:line:column`.
    var location: String {
        "\(fileName):\(node.mark?.line ?? 1):\(node.mark?.column ?? 1)"
    }

    /// An `invalidParameter` error at this node: `file:line:column: path problem`.
    func error(_ problem: String) -> QuireError {
        QuireError(.invalidParameter, "\(location): \(path.isEmpty ? "the recipe" : path) \(problem)")
    }

    /// The members of a mapping; refuses anything else, keys that are not plain strings, and
    /// keys outside `allowed` (naming the ones that are).
    func mapping(allowed: [String]) throws -> RecipeMapping {
        guard case .mapping(let mapping) = node else { throw error("must be a mapping (key: value)") }
        var keys: [String] = []
        var values: [String: RecipeNode] = [:]
        for (key, value) in mapping {
            let keyNode = RecipeNode(node: key, path: path, fileName: fileName)
            guard case .scalar(let scalar) = key else { throw keyNode.error("has a key that is not a plain name") }
            let name = scalar.string
            guard allowed.contains(name) else {
                throw keyNode.error(
                    "has an unknown key '\(name)'; expected \(allowed.map { "'\($0)'" }.joined(separator: ", "))")
            }
            keys.append(name)
            values[name] = child(value, key: name)
        }
        return RecipeMapping(node: self, keys: keys, values: values)
    }

    /// The mapping's members in order, with any string keys (for `collection: file` tables).
    func pairs() throws -> [(key: RecipeNode, value: RecipeNode)] {
        guard case .mapping(let mapping) = node else { throw error("must be a mapping (key: value)") }
        return try mapping.map { key, value in
            let keyNode = RecipeNode(node: key, path: path, fileName: fileName)
            let name = try keyNode.string()
            return (keyNode, child(value, key: name))
        }
    }

    /// The elements of a sequence; refuses anything else.
    func sequence() throws -> [RecipeNode] {
        guard case .sequence(let sequence) = node else { throw error("must be a list") }
        return sequence.enumerated().map { index, element in
            RecipeNode(node: element, path: "\(path)[\(index)]", fileName: fileName)
        }
    }

    /// A non-empty text scalar; numbers are taken as written.
    func string() throws -> String {
        guard case .scalar(let scalar) = node else { throw error("must be text") }
        guard node.null == nil || scalar.style != .plain, !scalar.string.isEmpty else { throw error("is empty") }
        return scalar.string
    }

    /// `true` or `false`.
    func bool() throws -> Bool {
        guard case .scalar = node, let value = node.bool else { throw error("must be true or false") }
        return value
    }

    /// A non-empty list of non-empty texts.
    func strings() throws -> [String] {
        let elements = try sequence()
        guard !elements.isEmpty else { throw error("must list at least one entry") }
        return try elements.map { try $0.string() }
    }

    private func child(_ value: Node, key: String) -> RecipeNode {
        RecipeNode(node: value, path: path.isEmpty ? key : "\(path).\(key)", fileName: fileName)
    }
}

/// A recipe mapping's members by key, in file order.
struct RecipeMapping {
    let node: RecipeNode
    let keys: [String]
    let values: [String: RecipeNode]

    subscript(key: String) -> RecipeNode? { values[key] }

    /// The member `key`, or an error at the mapping saying it is missing.
    func required(_ key: String) throws -> RecipeNode {
        guard let value = values[key] else { throw node.error("is missing '\(key)'") }
        return value
    }

    /// The one member present among `choices`; an error when none or several are.
    func oneOf(_ choices: [String]) throws -> (key: String, value: RecipeNode) {
        let present = keys.filter(choices.contains)
        guard present.count == 1, let key = present.first, let value = values[key] else {
            let listed = choices.map { "'\($0)'" }.joined(separator: " or ")
            throw node.error(present.isEmpty ? "needs \(listed)" : "takes only one of \(listed)")
        }
        return (key, value)
    }
}
