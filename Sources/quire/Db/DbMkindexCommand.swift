import ArgumentParser
import Foundation
import Quire

/// `quire db mkindex DATABASE NAME (--value EXPR ... | --fts EXPR ...) [-c COLLECTION]
/// [--where CONDITION] [--language LANG] [--ignore-accents]`.
struct DbMkindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mkindex",
        abstract: "Create a value or full-text index.",
        discussion: """
            Expressions are SQL++ (a property path such as city or geo.lat). Creating an index \
            that exists with the same definition does nothing; another definition replaces it.

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

    @Option(name: .shortAndLong, help: "The collection (scope.name or name); the default collection when left out.")
    var collection: String?

    @Option(name: .customLong("where"), help: "A SQL++ condition: index only the documents it holds for.")
    var condition: String?

    @Option(help: "The full-text language (stemming and stop words), such as en or fr; 'none' for none.")
    var language: String = "en"

    @Flag(help: "Full-text matching ignores accents (é matches e).")
    var ignoreAccents = false

    func validate() throws {
        guard values.isEmpty != fullText.isEmpty else {
            throw ValidationError("Give --value expressions or --fts expressions (one kind).")
        }
    }

    func run() throws {
        let config: any IndexConfiguration =
            values.isEmpty
            ? FullTextIndexConfiguration(
                fullText, where: condition, ignoreAccents: ignoreAccents, language: language == "none" ? nil : language)
            : ValueIndexConfiguration(values, where: condition)
        try target.with { database in
            let destination = try DbCollectionName(collection).resolve(in: database)
            try destination.createIndex(withName: name, config: config)
            DbOutput.write("Created index \(name) on \(destination.fullName)\n")
        }
    }
}
