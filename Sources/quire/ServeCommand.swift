import ArgumentParser
import Dispatch
import Foundation
import Quire
import QuireSync

/// `quire serve DATABASE [--port P] [--interface ADDRESS] [--read-only]`.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a database's collections over HTTP with the CouchDB replication protocol.",
        discussion: """
            The default collection is at /<name>, other collections at /<name>.<scope>.<collection>.
            CouchDB replicators, PouchDB and Quire's replicator can push to and pull from it.
            Stop with Ctrl-C (SIGINT) or SIGTERM.
            """
    )

    @Argument(help: "The database folder (<name>.quire), or the name of one in the current folder.")
    var database: String

    @Option(help: "The TCP port; 0 picks a free one.")
    var port: UInt16 = 4984

    @Option(help: "The address to listen on; 0.0.0.0 for every interface.")
    var interface: String = "127.0.0.1"

    @Flag(help: "Refuse every document write (peers can only pull).")
    var readOnly = false

    func run() throws {
        let url = URL(fileURLWithPath: database)
        let (name, directory) =
            url.pathExtension == "quire"
            ? (url.deletingPathExtension().lastPathComponent, url.deletingLastPathComponent().path)
            : (database, FileManager.default.currentDirectoryPath)
        guard Database.exists(withName: name, inDirectory: directory) else {
            throw ValidationError("No database '\(name)' in \(directory).")
        }
        let opened = try Database(name: name, config: DatabaseConfiguration(directory: directory))
        // Every collection of every scope; the default collection first, at /<name>.
        let all = try opened.scopes().flatMap { try $0.collections() }
        let isDefault = { (collection: Collection) in
            collection.scope.name == Database.defaultScopeName && collection.name == Database.defaultCollectionName
        }
        let collections = all.filter(isDefault) + all.filter { !isDefault($0) }
        let listener = URLEndpointListener(
            config: URLEndpointListenerConfiguration(
                collections: collections, port: port, networkInterface: interface, readOnly: readOnly))
        let outcome = ServeOutcome()
        let done = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM].map { number -> DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { Task { await listener.stop(); done.signal() } }
            source.resume()
            return source
        }
        Task {
            do {
                try await listener.start()
                let lines = (listener.urls ?? []).map { "Serving \($0.absoluteString)\n" }.joined()
                FileHandle.standardOutput.write(Data(lines.utf8))
            } catch {
                outcome.error = error
                done.signal()
            }
        }
        done.wait()
        signals.forEach { $0.cancel() }
        try opened.close()
        if let error = outcome.error { throw error }
    }
}

/// Why serving ended, handed from the listener's task to the command.
private final class ServeOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
