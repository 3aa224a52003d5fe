import Foundation
import Quire
import QuireFixtures
import Yams

/// Turns recipe YAML into a ``FixtureRecipe``, checking every key and value and resolving
/// the source, with errors that start `file:line:column:`.
struct FixtureRecipeParser {
    let fileName: String
    let baseFolder: URL

    func parse(_ data: Data) throws -> FixtureRecipe {
        guard let text = String(data: data, encoding: .utf8) else {
            throw QuireError(.invalidParameter, "\(fileName):1:1: the recipe is not UTF-8 text")
        }
        let root: Node
        do {
            guard let composed = try Yams.compose(yaml: text) else {
                throw QuireError(.invalidParameter, "\(fileName):1:1: the recipe is empty")
            }
            root = composed
        } catch let error as YamlError {
            throw describe(error)
        }
        let top = try RecipeNode(node: root, path: "", fileName: fileName).mapping(allowed: [
            "name", "source", "collections",
        ])

        let nameNode = try top.required("name")
        let name = try nameNode.string()
        guard FixtureRecipe.isValidName(name) else {
            throw nameNode.error("'\(name)' must be 1 to 128 of A-Z a-z 0-9 . _ -, starting with a letter or digit")
        }

        let sourceNode = try top.required("source")
        let source = try parseSource(sourceNode)
        let available: [String]
        do {
            available = try source.collectionNames()
        } catch let error as QuireError {
            throw sourceNode.error("cannot be read: \(error.message)")
        }

        var collections: [FixtureRecipe.CollectionSettings]
        if let list = top["collections"] {
            collections = []
            let entries = try list.sequence()
            guard !entries.isEmpty else { throw list.error("must list at least one collection") }
            for entry in entries {
                let settings = try parseCollection(entry, available: available)
                if collections.contains(where: { $0.name == settings.name }) {
                    throw entry.error("names '\(settings.name)' a second time")
                }
                collections.append(settings)
            }
        } else {
            collections = available.map { FixtureRecipe.CollectionSettings(name: $0) }
        }
        if case .jsonLines = source, collections.isEmpty { throw sourceNode.error("lists no collection") }
        return FixtureRecipe(
            name: name, source: source, collections: collections, contentDigest: SHA256.hash(data: data))
    }

    private func parseSource(_ node: RecipeNode) throws -> FixtureRecipe.Source {
        let (kind, value) = try node.mapping(allowed: ["dataset", "jsonl", "remote"]).oneOf([
            "dataset", "jsonl", "remote",
        ])
        switch kind {
        case "dataset":
            return .dataset(try existing(value, directory: true))
        case "remote":
            return .remote(try parseRemote(value))
        default:
            var files: [FixtureRecipe.JSONLinesFile] = []
            for (key, path) in try value.pairs() {
                let collection = try collectionName(key)
                guard !files.contains(where: { $0.collection == collection }) else {
                    throw key.error("names '\(collection)' a second time")
                }
                files.append(
                    FixtureRecipe.JSONLinesFile(collection: collection, url: try existing(path, directory: false)))
            }
            guard !files.isEmpty else { throw value.error("must name at least one collection and its file") }
            return .jsonLines(files)
        }
    }

    private func parseRemote(_ node: RecipeNode) throws -> FixtureRecipe.Remote {
        let mapping = try node.mapping(allowed: ["url", "channels", "collections"])
        let urlNode = try mapping.required("url")
        let text = try urlNode.string()
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https", "ws", "wss"].contains(scheme), url.host != nil
        else {
            throw urlNode.error("'\(text)' is not an http(s) or ws(s) URL of a remote database")
        }
        var remote = FixtureRecipe.Remote(url: url)
        if let channels = mapping["channels"] { remote.channels = try channels.strings() }
        if let list = mapping["collections"] {
            var names: [String] = []
            for entry in try list.sequence() {
                let name = try collectionName(entry)
                guard !names.contains(name) else { throw entry.error("names '\(name)' a second time") }
                names.append(name)
            }
            guard !names.isEmpty else { throw list.error("must list at least one collection") }
            remote.collections = names
        }
        return remote
    }

    private func parseCollection(_ node: RecipeNode, available: [String]) throws -> FixtureRecipe.CollectionSettings {
        let mapping = try node.mapping(allowed: ["name", "id", "indexes", "expiration"])
        let nameNode = try mapping.required("name")
        let name = try collectionName(nameNode)
        guard available.contains(name) else {
            throw nameNode.error(
                "'\(name)' is not in the source, which has \(available.map { "'\($0)'" }.joined(separator: ", "))")
        }
        var settings = FixtureRecipe.CollectionSettings(name: name)
        if let id = mapping["id"] { settings.idField = try id.string() }
        if let list = mapping["indexes"] {
            for entry in try list.sequence() {
                let index = try parseIndex(entry)
                if settings.indexes.contains(where: { $0.name == index.name }) {
                    throw entry.error("names index '\(index.name)' a second time in '\(name)'")
                }
                settings.indexes.append(index)
            }
        }
        if let expiration = mapping["expiration"] {
            let (kind, value) = try expiration.mapping(allowed: ["after", "field"]).oneOf(["after", "field"])
            if kind == "after" {
                let text = try value.string()
                guard let seconds = FixtureRecipe.Expiration.seconds(fromDuration: text) else {
                    throw value.error(
                        "'\(text)' is not a duration such as 3600, 90m, 12h, 30d or 2w (at most a century)")
                }
                settings.expiration = .after(seconds: seconds)
            } else {
                settings.expiration = .field(try value.string())
            }
        }
        return settings
    }

    private func parseIndex(_ node: RecipeNode) throws -> FixtureRecipe.Index {
        let mapping = try node.mapping(allowed: ["name", "value", "fullText", "ignoreAccents", "language"])
        let name = try mapping.required("name").string()
        let (kind, expressions) = try mapping.oneOf(["value", "fullText"])
        var index = FixtureRecipe.Index(
            name: name, kind: kind == "value" ? .value : .fullText, expressions: try expressions.strings())
        for option in ["ignoreAccents", "language"] {
            if index.kind == .value, let value = mapping[option] { throw value.error("is only for full-text indexes") }
        }
        index.ignoreAccents = try mapping["ignoreAccents"]?.bool()
        index.language = try mapping["language"]?.string()
        return index
    }

    /// A collection named `_default` or `scope.collection`, as a full name.
    private func collectionName(_ node: RecipeNode) throws -> String {
        let listed = try node.string()
        let full = DatasetIndex.fullName(of: listed)
        guard CollectionName.isValidFullName(full) else {
            throw node.error("'\(listed)' is neither '_default' nor a valid 'scope.collection' name")
        }
        return full
    }

    /// A path relative to the recipe's folder that names an existing file or folder.
    private func existing(_ node: RecipeNode, directory: Bool) throws -> URL {
        let path = try node.string()
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseFolder.appendingPathComponent(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw node.error("'\(path)' does not exist (looked for '\(url.standardizedFileURL.path)')")
        }
        guard isDirectory.boolValue == directory else {
            throw node.error("'\(path)' is \(directory ? "not a folder" : "a folder, not a file")")
        }
        return url.standardizedFileURL
    }

    private func describe(_ error: YamlError) -> QuireError {
        func located(_ mark: Mark, _ problem: String) -> QuireError {
            QuireError(.invalidParameter, "\(fileName):\(mark.line):\(mark.column): \(problem)")
        }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            return located(mark, "invalid YAML: \(problem)\(context.map { " \($0.text)" } ?? "")")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return located(context.mark, "repeats the key \(duplicates.map { "'\($0)'" }.joined(separator: ", "))")
        default:
            return QuireError(.invalidParameter, "\(fileName):1:1: invalid YAML: \(error)")
        }
    }
}
