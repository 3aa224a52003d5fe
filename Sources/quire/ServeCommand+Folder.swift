import ArgumentParser
import Foundation
import Quire
import QuireListener
import QuireSync

extension ServeCommand {
    /// The folder of databases `argument` names, or nil when it names one database (a
    /// `<name>.quire` path, or a database in the current folder), as `quire serve` always
    /// took it.
    static func databaseFolder(_ argument: String) throws -> URL? {
        let url = URL(fileURLWithPath: argument)
        if url.pathExtension == "quire" { return nil }
        if Database.exists(withName: argument, inDirectory: FileManager.default.currentDirectoryPath) { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return url
    }

    /// Serves every database in `folder` until SIGINT or SIGTERM, then closes them.
    func serveFolder(_ folder: URL) async throws {
        let (authenticator, accessLog) = try serverSettings()
        let databases = try ListenerDatabaseFolder(
            directory: folder.path, createsDatabases: createDatabases, allowsDelete: allowDelete,
            maximumOpenDatabases: maxOpenDatabases, fullSync: fullSync)
        let names = try databases.databaseNames()
        var config = URLEndpointListenerConfiguration(
            databaseFolder: databases, port: port, networkInterface: interface, readOnly: readOnly,
            authenticator: authenticator)
        config.conflicts = try conflictRule(default: .keep)
        try applyLimits(to: &config, accessLog: accessLog)
        defer { try? databases.close() }
        try applyTLS(to: &config, folder: folder)
        let listener = URLEndpointListener(config: config)
        let path = folder.standardizedFileURL.path
        try await serveUntilSignalled(listener) { listener in
            let urls = (listener.serverURLs ?? []).map { "Serving \($0.absoluteString)\n" }.joined()
            let listed =
                names.isEmpty
                ? "no databases yet"
                : "\(names.count) database\(names.count == 1 ? "" : "s"): \(names.joined(separator: ", "))"
            return urls + "Folder \(path): \(listed)\n" + ServeCommand.tlsAnnouncement(listener)
        }
        try databases.close()
    }
}
