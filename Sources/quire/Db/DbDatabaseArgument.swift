import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// The DATABASE argument every `quire db` subcommand takes: a database folder (`<name>.quire`,
/// anywhere) or the name of one in the current folder.
struct DbDatabaseArgument: ParsableArguments {
    @Argument(
        help: "The database folder (<name>.quire), or the name of one in the current folder.", completion: .directory)
    var database: String

    /// The database's name and the folder holding it.
    var location: (name: String, directory: String) {
        let url = URL(fileURLWithPath: database)
        if url.pathExtension == "quire" {
            return (url.deletingPathExtension().lastPathComponent, url.deletingLastPathComponent().path)
        }
        return (database, FileManager.default.currentDirectoryPath)
    }

    /// The database's folder.
    var folder: URL {
        let (name, directory) = location
        return URL(fileURLWithPath: directory).appendingPathComponent("\(name).quire")
    }

    /// Opens the database, which must exist.
    ///
    /// - Throws: ``CommandFailure`` when there is no such database: it suggests `quire db create`
    ///   only when the argument could name a new database, not for a path to something else.
    func open() throws -> Database {
        let (name, directory) = location
        guard !name.isEmpty else { throw CommandFailure("'\(database)' does not name a database") }
        guard Database.exists(withName: name, inDirectory: directory) else { throw missing(name, in: directory) }
        return try CommandFailure.reporting {
            try Database(name: name, config: DatabaseConfiguration(directory: directory))
        }
    }

    /// Why `open()` found no database, in words that fit what the argument is.
    private func missing(_ name: String, in directory: String) -> CommandFailure {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: database, isDirectory: &isDirectory)
        if URL(fileURLWithPath: database).pathExtension != "quire", database.contains("/") || exists {
            let what = exists ? (isDirectory.boolValue ? "a folder" : "a file") : "nothing"
            return CommandFailure(
                "'\(database)' is not a database: it is \(what), and a database is a folder named <name>.quire")
        }
        if exists, !isDirectory.boolValue {
            return CommandFailure("'\(database)' is a file, not a database folder")
        }
        return CommandFailure("No database '\(name)' in \(directory) (create one with: quire db create \(database))")
    }

    /// Opens the database, runs `body` with it, and closes it whatever happens.
    func with<T>(_ body: (Database) throws -> T) throws -> T {
        let opened = try open()
        defer { try? opened.close() }
        return try CommandFailure.reporting { try body(opened) }
    }
}
