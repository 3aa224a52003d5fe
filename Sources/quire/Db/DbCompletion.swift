import ArgumentParser
import Foundation
import Quire

/// Shell completion for `quire db` command lines (see `quire --generate-completion-script`):
/// the collections of the database a command line names, and the full-text languages.
enum DbCompletion {
    /// The collections of the database the command line names, as `-c` takes them (`name` in
    /// the default scope, `scope.name` elsewhere), that start with `prefix`. The database is
    /// the first word after the subcommand that is not an option; nothing when it names none.
    @Sendable static func collections(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let db = words.firstIndex(of: "db"), db + 2 < words.count else { return [] }
        let candidates = words[(db + 2)...].enumerated().filter { $0.offset + db + 2 != index }.map(\.element)
        guard let word = candidates.first(where: { !$0.hasPrefix("-") }),
            let argument = try? DbDatabaseArgument.parse([word])
        else { return [] }
        let (name, directory) = argument.location
        guard !name.isEmpty, Database.exists(withName: name, inDirectory: directory),
            let database = try? Database(name: name, config: DatabaseConfiguration(directory: directory))
        else { return [] }
        defer { try? database.close() }
        let names = ((try? database.scopes()) ?? []).flatMap { scope in
            ((try? scope.collections()) ?? []).map {
                scope.name == Database.defaultScopeName ? $0.name : "\(scope.name).\($0.name)"
            }
        }
        return names.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// The languages `mkindex --language` takes: those this build stems, and `none`.
    static var languages: CompletionKind {
        .list(FullTextIndexConfiguration.stemmedLanguages + ["none"])
    }
}
