import ArgumentParser
import Quire
import QuireFixtureBuilder

extension DbDatabaseArgument {
    /// Shell completion for `-c` (see `quire --generate-completion-script`): the collections
    /// of the database the command line names that start with `prefix`. The database is the
    /// first word after the subcommand that is not an option; nothing when it names none.
    @Sendable static func completeCollections(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let db = words.firstIndex(of: "db"), db + 2 < words.count else { return [] }
        let candidates = words[(db + 2)...].enumerated().filter { $0.offset + db + 2 != index }.map(\.element)
        guard let word = candidates.first(where: { !$0.hasPrefix("-") }),
            let argument = try? DbDatabaseArgument.parse([word])
        else { return [] }
        let (name, directory) = argument.location
        return Database.collectionNames(ofDatabaseNamed: name, inDirectory: directory).filter { $0.hasPrefix(prefix) }
    }
}
