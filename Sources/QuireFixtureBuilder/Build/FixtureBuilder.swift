import Foundation
import Quire
import QuireFixtures
import QuireSync

/// Builds a fixture from a recipe: a fresh database, loaded, indexed, compacted and packed
/// as `<name>.quire.zip` with its manifest (`quire fixture build`).
///
/// Two builds of the same recipe, sources and ``timestamp`` give byte-identical archives:
/// - the database starts empty in a new folder, and documents go in in source order, so
///   sequences, revision IDs and table layout repeat;
/// - time comes only from ``timestamp``: the database's clock is stopped there, and relative
///   expirations count from it;
/// - the UUIDs, random in any other database, are derived from the inputs (``FixtureIdentity``);
/// - the WAL is checkpointed and the file rebuilt with `VACUUM` after the last change, so no
///   free pages or page order carry traces of how the load was batched;
/// - the archive is written by ``ReproducibleZipWriter``.
public struct FixtureBuilder: Sendable {
    /// The recipe.
    public var recipe: FixtureRecipe
    /// The build's only time: entry times in the archive, the manifest, expirations.
    public var timestamp: FixtureTimestamp
    /// Documents per transaction while loading.
    public var batchSize: Int
    /// Creates the recipe's indexes.
    public var indexer: any FixtureIndexer
    /// Deflate level of the archive, 1...9.
    public var compressionLevel: Int
    /// Called as the build advances, on the building thread.
    public var progress: (@Sendable (FixtureBuildProgress) -> Void)?

    /// Makes a builder.
    public init(
        recipe: FixtureRecipe, timestamp: FixtureTimestamp = .fallback, batchSize: Int = 1_000,
        indexer: any FixtureIndexer = StoreFixtureIndexer(), compressionLevel: Int = 6,
        progress: (@Sendable (FixtureBuildProgress) -> Void)? = nil
    ) {
        self.recipe = recipe
        self.timestamp = timestamp
        self.batchSize = batchSize
        self.indexer = indexer
        self.compressionLevel = compressionLevel
        self.progress = progress
    }

    /// Builds `<name>.quire.zip` in `outputFolder` (created if missing), replacing an archive
    /// of that name. The database is built in a hidden folder there (`.<name>.build-<UUID>`)
    /// and the archive written as `.<name>.quire.zip.partial-<UUID>` then renamed into place;
    /// both are removed afterwards whatever happens. A killed build leaves them behind, locked
    /// by no one: every build starts by removing such leftovers of any recipe from
    /// `outputFolder`, and leaves those of builds still running (they hold a lock) alone.
    ///
    /// - Returns: the archive's location and its manifest.
    /// - Throws: `QuireError` naming the document (file and line) or the step that failed.
    @discardableResult
    public func build(into outputFolder: URL) throws -> FixtureBuildResult {
        guard batchSize > 0 else { throw QuireError(.invalidParameter, "batch size \(batchSize) is not positive") }
        do {
            try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        } catch {
            throw QuireError(
                .cantOpenFile, "cannot create output folder '\(outputFolder.path)': \(error.localizedDescription)")
        }
        Self.sweep(outputFolder)
        let scratch = try OwnedScratch.create(.folder, in: outputFolder, prefix: ".\(recipe.name).build-")
        defer { scratch.remove() }
        let work = scratch.url

        let total = try countDocuments()
        var manifest = try buildDatabase(in: work, total: total)
        announce(.packing, total, total)
        let databaseFolder = work.appendingPathComponent(FixtureLayout.databaseFolder(recipe.name), isDirectory: true)
        var entries = try ReproducibleZipWriter.entries(
            forContentsOf: databaseFolder, prefix: FixtureLayout.databaseFolder(recipe.name))
        for entry in entries {
            guard case .file(let url) = entry.content else { continue }
            if let digest = FixtureLayout.blobDigest(atPath: entry.path, name: recipe.name) {
                manifest.blobs.append(digest)
                continue
            }
            var hasher = SHA256()
            let size = try PosixFile.stream(url.path) { hasher.update($0) }
            manifest.entries.append(
                FixtureManifest.Entry(path: entry.path, sha256: DigestText.hex(hasher.finalize()), size: size))
        }
        entries.append(.bytes(FixtureManifest.fileName, try manifest.encoded()))
        let archive = outputFolder.appendingPathComponent(FixtureLayout.archiveFileName(recipe.name))
        try ReproducibleZipWriter(timestamp: timestamp, compressionLevel: compressionLevel).write(entries, to: archive)
        announce(.finished, total, total)
        return FixtureBuildResult(archiveURL: archive, manifest: manifest.canonicalized())
    }

    /// Removes the work folders and partial archives that killed builds left in `folder`
    /// (those no living process holds); returns their names.
    @discardableResult
    static func sweep(_ folder: URL) -> [String] {
        OwnedScratch.sweep(folder) { name in
            guard name.hasPrefix(".") else { return false }
            for marker in [".build-", ".quire.zip.partial-"] {
                if let range = name.range(of: marker, options: .backwards),
                    OwnedScratch.isScratchName(name, prefix: String(name[..<range.upperBound]))
                {
                    return true
                }
            }
            return false
        }
    }

    /// Loads, indexes, stamps and compacts the database in `work`; returns the manifest
    /// without entries.
    private func buildDatabase(in work: URL, total: Int) throws -> FixtureManifest {
        let config = DatabaseConfiguration(directory: work.path, clock: ManualClock(start: timestamp.date))
        let database = try Database(name: recipe.name, config: config)
        let manifest: FixtureManifest
        do {
            manifest = try fill(database, total: total)
            announce(.compacting, total, total)
            try database.performMaintenance(type: .compact)
            try database.close()
        } catch {
            try? database.close()
            throw error
        }
        let file = URL(fileURLWithPath: database.filePath)
        for suffix in ["-wal", "-shm", "-journal"] {
            let path = file.path + suffix
            guard FileManager.default.fileExists(atPath: path) else { continue }
            // A checkpointed, closed database has nothing there; anything else must not be lost.
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard suffix == "-shm" || size == 0 else {
                throw QuireError(
                    .unexpectedError,
                    "'\(path)' still holds \(size) bytes after the database was checkpointed and closed")
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        return manifest
    }

    private func fill(_ database: Database, total: Int) throws -> FixtureManifest {
        let loader = try FixtureDocumentLoader(
            recipe: recipe, database: database, timestamp: timestamp, batchSize: batchSize
        ) { [progress] collection, loaded in
            progress?(
                FixtureBuildProgress(
                    stage: .loading(collection: collection), documentsLoaded: loaded, documentsTotal: total))
        }
        var indexes: [FixtureManifest.IndexDescription] = []
        var collections: [(Quire.Collection, FixtureRecipe.CollectionSettings)] = []
        for settings in recipe.collections {
            announce(.loading(collection: settings.name), loader.loaded, total)
            let (name, scope) = settings.nameAndScope
            let collection =
                settings.name == CollectionName.defaultFullName
                ? try database.defaultCollection() : try database.createCollection(name: name, scope: scope)
            if case .remote = recipe.source {} else { try loader.load(settings, into: collection) }
            collections.append((collection, settings))
        }
        var checkpoints: [FixtureManifest.Checkpoint]?
        if case .remote(let remote) = recipe.source {
            // The checkpoint IDs hash the private UUID, so it is set before pulling.
            let identity = FixtureIdentity(
                recipeDigest: recipe.contentDigest, timestamp: timestamp, inputDigest: Self.remoteInputDigest(remote))
            try stamp(database, identity)
            checkpoints = try pull(remote, into: collections.map(\.0))
        }
        announce(.indexing, loader.loaded, total)
        for (collection, settings) in collections {
            for index in settings.indexes {
                try indexer.createIndex(index, in: collection)
                indexes.append(index.manifestDescription(collection: settings.name))
            }
        }
        if checkpoints == nil {
            var inputs = loader.inputs
            try stamp(
                database,
                FixtureIdentity(
                    recipeDigest: recipe.contentDigest, timestamp: timestamp, inputDigest: inputs.finalize()))
        }
        var summaries: [FixtureManifest.CollectionSummary] = []
        for scope in try database.scopes() {
            for collection in try scope.collections() {
                summaries.append(
                    FixtureManifest.CollectionSummary(name: collection.fullName, documentCount: Int(collection.count)))
            }
        }
        return FixtureManifest(
            name: recipe.name, collections: summaries, indexes: indexes, checkpoints: checkpoints,
            buildTimestamp: timestamp)
    }

    /// Gives the database the fixture's UUIDs.
    private func stamp(_ database: Database, _ identity: FixtureIdentity) throws {
        try StoreCatalog.stamp(database, privateUUID: identity.privateUUID, publicUUID: identity.publicUUID)
    }

    /// What a remote source contributes to the identity: the collections and channels, not
    /// the URL (a test server's port changes from run to run) nor the pulled content (not
    /// known before the pull, and the checkpoint IDs need the UUID first).
    static func remoteInputDigest(_ remote: FixtureRecipe.Remote) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: Array("remote".utf8) + [0])
        for name in remote.collections { hasher.update(data: Array(name.utf8) + [0]) }
        hasher.update(data: [0])
        for channel in Array(Set(remote.channels)).sorted() { hasher.update(data: Array(channel.utf8) + [0]) }
        return hasher.finalize()
    }

    /// Pulls the remote into `collections` with a one-shot replicator; returns each
    /// collection's checkpoint, which stays in the database as a local document.
    private func pull(_ remote: FixtureRecipe.Remote, into collections: [Quire.Collection]) throws -> [FixtureManifest
        .Checkpoint]
    {
        var config = ReplicatorConfiguration(target: URLEndpoint(url: remote.url))
        config.replicatorType = .pull
        config.maxAttempts = 3
        config.addCollections(
            collections, config: CollectionConfiguration(channels: remote.channels.isEmpty ? nil : remote.channels))
        let replicator = Replicator(config: config)
        let outcome = try BlockingReplication.run(replicator, timeout: 600)
        if let error = outcome.error {
            var located = error
            located.message = "pulling from \(remote.url.absoluteString): \(error.message)"
            throw located
        }
        return try collections.map { collection in
            guard let report = replicator.checkpointReport(for: collection) else {
                throw QuireError(
                    .unexpectedError,
                    "the pull from \(remote.url.absoluteString) recorded no checkpoint for \(collection.fullName)")
            }
            return FixtureManifest.Checkpoint(
                collection: collection.fullName, remoteURL: remote.url.absoluteString, checkpointID: report.checkpointID
            )
        }
    }

    /// The non-blank lines of every source file the recipe loads; 0 when nobody watches.
    private func countDocuments() throws -> Int {
        guard progress != nil else { return 0 }
        if case .remote = recipe.source { return 0 }
        return try recipe.collections.reduce(0) { $0 + (try recipe.documentReader(for: $1).countDocumentLines()) }
    }

    private func announce(_ stage: FixtureBuildProgress.Stage, _ loaded: Int, _ total: Int) {
        progress?(FixtureBuildProgress(stage: stage, documentsLoaded: loaded, documentsTotal: total))
    }
}
