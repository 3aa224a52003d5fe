import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db mkindex DATABASE NAME (--value EXPR ... | --fts EXPR ...) [-c COLLECTION]
/// [--where CONDITION] [--language LANG] [--ignore-accents] [--json]`.
struct DbMkindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mkindex",
        abstract: "Create a value or full-text index.",
        discussion: """
            Expressions are SQL++ (a property path such as city or geo.lat). Creating an index \
            that exists with the same definition does nothing; another definition replaces it. \
            A property named like a SQL++ keyword (desc, order, value) is quoted with \
            backquotes: --fts '`desc`'. --language takes the codes this build stems \
            (any other is refused with the list) or none.

            Example:
              quire db mkindex travel.quire by_city --value city -c hotel
              quire db mkindex travel.quire reviews --fts review --language fr -c hotel
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The index name.")
    var name: String

    @Option(name: .customLong("value"), parsing: .upToNextOption, help: "Value index expressions.")
    var values: [String] = []

    @Option(name: .customLong("fts"), parsing: .upToNextOption, help: "Full-text index expressions.")
    var fullText: [String] = []

    @OptionGroup var collection: DbCollectionOption

    @Option(name: .customLong("where"), help: "A SQL++ condition: index only the documents it holds for.")
    var condition: String?

    @Option(
        help: "The full-text language (stemming and stop words), such as en (the default) or fr; none for none.",
        completion: .list(FullTextIndexConfiguration.stemmedLanguages + ["none"]))
    var language: String?

    @Flag(help: "Full-text matching ignores accents (é matches e).")
    var ignoreAccents = false

    @Flag(help: "Print the index created as JSON.")
    var json = false

    func validate() throws {
        let languages = FullTextIndexConfiguration.stemmedLanguages
        if let language, language != "none", !FullTextIndexConfiguration.isStemmed(language: language) {
            let known =
                languages.isEmpty
                ? "this build has no stemmers: only none" : "one of \(languages.joined(separator: ", ")) or none"
            throw ValidationError("--language '\(language)' is not a language Quire can stem: give \(known).")
        }
        guard values.isEmpty != fullText.isEmpty else {
            throw ValidationError("Give --value expressions or --fts expressions (one kind).")
        }
    }

    func run() throws {
        let config: any IndexConfiguration =
            values.isEmpty
            ? FullTextIndexConfiguration(
                fullText, where: condition, ignoreAccents: ignoreAccents,
                language: language == "none" ? nil : language ?? "en")
            : ValueIndexConfiguration(values, where: condition)
        let created = try target.with { database in
            let destination = try collection.collection(in: database)
            do {
                try destination.createIndex(withName: name, config: config)
            } catch let error as QuireError where error.code == .invalidQuery {
                throw CommandFailure(Self.explain(error.message, expressions: values + fullText))
            }
            return destination.fullName
        }
        if json {
            try CommandOutput.json(
                .object([
                    "collection": .string(created), "index": .string(name),
                    "kind": .string(values.isEmpty ? "fts" : "value"),
                    "expressions": .array((values + fullText).map(JSONValue.string)),
                ]))
        } else {
            CommandOutput.write("Created index \(name) on \(created)\n")
        }
    }

    /// `message` with a hint when one of `expressions` is a bare SQL++ keyword, which needs
    /// backquotes to name a property (`desc` is read as the keyword DESC).
    static func explain(_ message: String, expressions: [String]) -> String {
        let keywords: Set<String> = [
            "all", "and", "any", "as", "asc", "between", "by", "case", "collate", "desc", "distinct", "each", "else",
            "end", "every", "exists", "false", "from", "group", "having", "in", "is", "join", "like", "limit",
            "match", "missing", "not", "null", "offset", "on", "or", "order", "regexp", "satisfies", "select",
            "then", "true", "unnest", "valued", "when", "where",
        ]
        let bare = expressions.filter { keywords.contains($0.lowercased()) }
        guard let first = bare.first else { return message }
        return
            "\(message); '\(first)' is a SQL++ keyword: to name a property \(first), quote it with backquotes, as '`\(first)`'"
    }
}
