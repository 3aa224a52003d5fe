import ArgumentParser
import Foundation
import Quire
import QuireFixtures
import QuireSync

/// `quire fixture doctor FIXTURE-OR-DATABASE --url URL`.
struct FixtureDoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Tell whether the first replication will resume from the stored checkpoint.",
        discussion: """
            Compares the replication settings given here with the inputs recorded in the \
            checkpoints the database stores, and names each one that differs: URL form, \
            host, port, path, collection, channels, filter, document IDs, or a UUID that was \
            not regenerated because the database was copied without Database.copy.

            A .zip fixture is extracted to a temporary folder and judged as it will be once \
            installed with Database.copy (its UUID becomes a previous one); a database folder \
            is judged as it is, unless --fixture says it is a fixture still to be installed.

            Exits 0 when the replication will resume, 1 when it will start over, 2 when the \
            fixture or database cannot be read, and 64 on bad arguments.

            Example:
              quire fixture doctor out/travel.quire.zip --url http://10.0.0.7:4984/db
            """
    )

    @Argument(help: "A fixture .zip, or a database folder (<name>.quire).")
    var source: String

    @Option(help: "The remote database URL the app replicates with.")
    var url: String

    @Option(help: "The collection, as scope.collection (default: the default collection).")
    var collection: String?

    @Option(parsing: .upToNextOption, help: "Channels pulled (space- or comma-separated).")
    var channels: [String] = []

    @Option(
        name: .customLong("doc-ids"), parsing: .upToNextOption,
        help: "Document IDs replicated (space- or comma-separated).")
    var documentIDs: [String] = []

    @Option(help: "The server-side filter's name.")
    var filter: String?

    @Option(name: .customLong("filter-param"), help: "A server-side filter parameter as name=value (repeatable).")
    var filterParameters: [String] = []

    @Flag(help: "Judge a database folder as a fixture to be installed with Database.copy.")
    var fixture = false

    func validate() throws {
        guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil else {
            throw ValidationError("--url '\(url)' is not a URL like http://host:4984/db.")
        }
        for parameter in filterParameters where !parameter.contains("=") {
            throw ValidationError("--filter-param '\(parameter)' must be written name=value.")
        }
    }

    func run() throws {
        let diagnosis: CheckpointDiagnosis
        do {
            diagnosis = try diagnose()
        } catch let error as ValidationError {
            throw error
        } catch let error as ExitCode {
            throw error
        } catch {
            // Exit status 1 means "it will start over"; failing to judge at all must not read
            // as that answer.
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        print(diagnosis)
        if !diagnosis.willResume { throw ExitCode(1) }
    }

    private func diagnose() throws -> CheckpointDiagnosis {
        guard let remote = URL(string: url) else { throw ExitCode.validationFailure }
        let sourceURL = URL(fileURLWithPath: source)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: sourceURL.path, isDirectory: &isFolder) else {
            throw ValidationError("Nothing at '\(source)'.")
        }
        var cleanup: OwnedScratch?
        defer { cleanup?.remove() }
        let databasePath: String
        let mode: CheckpointDoctor.Mode
        if isFolder.boolValue {
            databasePath = sourceURL.path
            mode = fixture ? .fixture : .installed
        } else {
            // Locked while in use; what a killed run left (locked by no one) goes first.
            let temporary = FileManager.default.temporaryDirectory
            let prefix = ".quire-doctor.extract-"
            OwnedScratch.sweep(temporary) { OwnedScratch.isScratchName($0, prefix: prefix) }
            let scratch = try SafeArchiveReader(archiveURL: sourceURL).extract(in: temporary, prefix: prefix)
            cleanup = scratch
            let extracted = scratch.url
            guard let found = FixtureDoctorCommand.findDatabase(in: extracted) else {
                throw ValidationError(
                    "The archive '\(source)' holds no database folder (<name>.quire with db.sqlite3).")
            }
            databasePath = found
            mode = .fixture
        }
        return try CheckpointDoctor.diagnose(
            databaseAt: databasePath, mode: mode, collection: collection, url: remote,
            channels: FixtureDoctorCommand.split(channels), documentIDs: FixtureDoctorCommand.split(documentIDs),
            filter: filter, filterParameters: parameters)
    }

    private var parameters: [String: String] {
        var result: [String: String] = [:]
        for parameter in filterParameters {
            let parts = parameter.split(separator: "=", maxSplits: 1).map(String.init)
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
    }

    /// The first `<name>.quire` folder holding `db.sqlite3`, breadth first, at most three
    /// levels down; or the folder itself when it holds `db.sqlite3`.
    private static func findDatabase(in folder: URL) -> String? {
        let manager = FileManager.default
        var level = [folder]
        for _ in 0...3 {
            var next: [URL] = []
            for directory in level {
                if manager.fileExists(atPath: directory.appendingPathComponent("db.sqlite3").path) {
                    return directory.path
                }
                let children =
                    (try? manager.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isDirectoryKey]))
                    ?? []
                next += children.filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
                    .sorted { $0.path < $1.path }
            }
            level = next
        }
        return nil
    }
}
