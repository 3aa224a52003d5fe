import Foundation
import Quire

/// A fixture archive extracted by ``SafeArchiveReader`` into a temporary folder, with its
/// manifest read, ready to be checked entry by entry. ``remove()`` deletes the folder.
///
/// The folder is ``OwnedScratch``: locked while this value uses it, and removed by
/// ``sweep(_:)`` in a later run when the process that made it was killed.
struct UnpackedFixture {
    /// The prefix of an installer's extraction folders.
    static let installPrefix = ".quire-install.extract-"
    /// The prefix of the extraction folders of `verify` and `inspect`.
    static let inspectionPrefix = ".quire-fixture.extract-"

    /// The temporary folder holding the archive's entries.
    var folder: URL { scratch.url }
    /// The manifest, read and validated.
    let manifest: FixtureManifest
    private let scratch: OwnedScratch
    /// Each extracted file by its path in the folder, with the size and SHA-256 of the bytes
    /// written to it, taken while extracting.
    private let extractedFiles: [String: ArchiveEntry]

    /// Removes the extraction folders in `folder` that a killed install, verify or inspect
    /// left behind (those no living process holds); returns their names.
    @discardableResult
    static func sweep(_ folder: URL) -> [String] {
        OwnedScratch.sweep(folder) {
            OwnedScratch.isScratchName($0, prefix: installPrefix)
                || OwnedScratch.isScratchName($0, prefix: inspectionPrefix)
        }
    }

    /// Extracts `archive` into a new folder `<prefix><UUID>` in `parent` and reads its
    /// manifest. On any error nothing is left behind.
    ///
    /// The archive is read twice: first every header, applying every rule to it, and the
    /// manifest's data (nothing else is decompressed); then, only if that passed, it is
    /// extracted with just `manifest.json` and the manifest's `<name>.quire` folder allowed,
    /// so an entry anywhere else is refused before a byte is written. The data rules (each
    /// entry's real size against its declared one, the per-entry, total and ratio limits) are
    /// applied while extracting: a bomb is stopped within the limits and the folder removed.
    /// Each file is hashed as it is written, for ``checkFiles()``.
    ///
    /// - Throws: `corruptData` for an unsafe or damaged archive, a missing or invalid manifest,
    ///   or an entry outside the database folder.
    static func extract(_ archive: URL, in parent: URL, prefix: String, limits: ArchiveLimits) throws -> UnpackedFixture
    {
        let headerReader = SafeArchiveReader(archiveURL: archive, limits: limits)
        var manifestData = try headerReader.validate(readingEntry: FixtureManifest.fileName)
        if manifestData == nil {
            // Not a fixture. Read it all so a damaged or hostile archive (a bomb) is reported
            // as such, rather than only as lacking a manifest.
            manifestData = try headerReader.contents(ofEntry: FixtureManifest.fileName)
        }
        guard let manifestData else {
            throw QuireError(.corruptData, "archive '\(archive.lastPathComponent)' has no \(FixtureManifest.fileName)")
        }
        let manifest = try FixtureManifest.decoded(from: manifestData)
        let reader = SafeArchiveReader(
            archiveURL: archive, limits: limits,
            allowedRoots: [FixtureManifest.fileName, FixtureLayout.databaseFolder(manifest.name)])
        let (scratch, files) = try reader.extractHashing(in: parent, prefix: prefix)
        // The file may have changed between the two reads; only the extracted copy counts.
        let extracted = FileManager.default.contents(
            atPath: scratch.url.appendingPathComponent(FixtureManifest.fileName).path)
        guard extracted == manifestData else {
            scratch.remove()
            throw QuireError(.corruptData, "archive '\(archive.lastPathComponent)' changed while it was being read")
        }
        return UnpackedFixture(manifest: manifest, scratch: scratch, extractedFiles: files)
    }

    /// The database folder, `<name>.quire`.
    var databaseFolder: URL {
        folder.appendingPathComponent(FixtureLayout.databaseFolder(manifest.name), isDirectory: true)
    }

    /// The SQLite file.
    var databaseFile: URL {
        folder.appendingPathComponent(FixtureLayout.databaseFilePath(manifest.name))
    }

    /// Deletes the temporary folder.
    func remove() {
        scratch.remove()
    }

    /// Checks every file against the manifest: each listed entry present with its size and
    /// SHA-256 (those of the bytes extracted into it, counted while they were written), each listed blob present under its name with content of that SHA-1, the
    /// database file listed, and nothing else.
    func checkFiles() -> [FixtureVerificationReport.Check] {
        var checks: [FixtureVerificationReport.Check] = []
        var files: Set<String> = []
        if let enumerator = FileManager.default.enumerator(atPath: folder.path) {
            for case let path as String in enumerator {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory),
                    !isDirectory.boolValue, path != FixtureManifest.fileName
                {
                    files.insert(path)
                }
            }
        }
        let databasePath = FixtureLayout.databaseFilePath(manifest.name)
        if !manifest.entries.contains(where: { $0.path == databasePath }) {
            checks.append(.init(subject: databasePath, problem: "is not listed in the manifest"))
        }
        for entry in manifest.entries {
            let subject = entry.path
            guard files.remove(entry.path) != nil else {
                checks.append(.init(subject: subject, problem: "is missing from the archive"))
                continue
            }
            do {
                let size: Int64
                let sha256: String
                if let extracted = extractedFiles[entry.path], let counted = extracted.size,
                    let digest = extracted.sha256
                {
                    (size, sha256) = (counted, digest)
                } else {
                    var hasher = SHA256()
                    size = try PosixFile.stream(folder.appendingPathComponent(entry.path).path) { hasher.update($0) }
                    sha256 = DigestText.hex(hasher.finalize())
                }
                if size != entry.size {
                    checks.append(
                        .init(subject: subject, problem: "has \(size) bytes; the manifest says \(entry.size)"))
                } else if sha256 != entry.sha256 {
                    checks.append(
                        .init(subject: subject, problem: "has SHA-256 \(sha256); the manifest says \(entry.sha256)"))
                } else {
                    checks.append(.init(subject: subject, detail: "\(size) bytes, SHA-256 \(sha256.prefix(16))…"))
                }
            } catch let error as QuireError {
                checks.append(.init(subject: subject, problem: "cannot be read: \(error.message)"))
            } catch {
                checks.append(.init(subject: subject, problem: "cannot be read: \(error)"))
            }
        }
        for digest in manifest.blobs {
            let subject = "blob \(digest)"
            let path = (try? DatasetBlobName.fileName(forDigest: digest)).map {
                "\(FixtureLayout.attachmentsPath(manifest.name))/\($0)"
            }
            guard let path, files.remove(path) != nil else {
                checks.append(.init(subject: subject, problem: "is missing from the archive"))
                continue
            }
            do {
                var hasher = SHA1()
                let size = try PosixFile.stream(folder.appendingPathComponent(path).path) { hasher.update($0) }
                let actual = "sha1-" + DigestText.base64(hasher.finalize())
                checks.append(
                    actual == digest
                        ? .init(subject: subject, detail: "\(size) bytes")
                        : .init(subject: subject, problem: "holds content with digest \(actual)"))
            } catch {
                checks.append(.init(subject: subject, problem: "cannot be read: \(error)"))
            }
        }
        for path in files.sorted() {
            checks.append(.init(subject: path, problem: "is in the archive but not in the manifest"))
        }
        return checks
    }
}
