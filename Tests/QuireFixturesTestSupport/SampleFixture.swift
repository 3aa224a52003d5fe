import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// Small fixtures for the build, verify, inspect and install tests. Everything here uses
/// libarchive: callers hold ``archiveLock``.
package enum SampleFixture {
    /// A travel dataset (4 hotels, 2 blobs) in `data/travel` and a recipe for it in
    /// `recipes/travel.yaml`, with `collectionsYAML` appended; returns the recipe.
    package static func travelRecipe(in scratch: ScratchFolder, collectionsYAML: String = "") throws -> FixtureRecipe {
        if !FileManager.default.fileExists(atPath: scratch.file("data/travel").path) {
            try DatasetGenerator(kind: .travel, count: 4, seed: 3).write(to: scratch.file("data/travel"))
        }
        let url = try scratch.write(
            "name: travel\nsource:\n  dataset: ../data/travel\n" + collectionsYAML, to: "recipes/travel.yaml")
        return try FixtureRecipe.load(from: url)
    }

    /// Builds the travel recipe into `folder` (default: `out`) and returns the archive.
    package static func buildTravel(in scratch: ScratchFolder, folder: String = "out") throws -> URL {
        try FixtureBuilder(recipe: try travelRecipe(in: scratch)).build(into: scratch.file(folder)).archiveURL
    }

    /// Extracts `archive` into a folder, lets `modify` change it, and packs the folder again
    /// as `destination` (sorted, fixed times, like a real build).
    package static func repack(_ archive: URL, to destination: URL, _ modify: (URL) throws -> Void) throws {
        let folder = try SafeArchiveReader(archiveURL: archive).extract(nextTo: destination)
        defer { try? FileManager.default.removeItem(at: folder) }
        try modify(folder)
        try ReproducibleZipWriter().write(try ReproducibleZipWriter.entries(forContentsOf: folder), to: destination)
    }

    /// Reads, edits and writes back the manifest in an extracted fixture folder.
    package static func editManifest(in folder: URL, _ edit: (inout FixtureManifest) -> Void) throws {
        let url = folder.appendingPathComponent(FixtureManifest.fileName)
        var manifest = try FixtureManifest.decoded(from: Data(contentsOf: url))
        edit(&manifest)
        try manifest.encoded().write(to: url)
    }

    /// Writes `manifest` into an extracted fixture folder as it is, without the checks
    /// `FixtureManifest.encoded()` applies, so a test can plant a manifest that breaks a rule.
    package static func writeUncheckedManifest(_ manifest: FixtureManifest, in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try encoder.encode(manifest).write(to: folder.appendingPathComponent(FixtureManifest.fileName))
    }

    /// The travel fixture with `stray.txt` beside the database folder, listed nowhere.
    package static func writeStrayEntryFixture(in scratch: ScratchFolder, to url: URL) throws {
        try repack(try buildTravel(in: scratch, folder: "good"), to: url) { folder in
            try Data("stray".utf8).write(to: folder.appendingPathComponent("stray.txt"))
        }
    }

    /// The travel fixture whose manifest lists `stray.txt`, outside the database folder.
    package static func writeManifestListingAnOutsidePath(in scratch: ScratchFolder, to url: URL) throws {
        try repack(try buildTravel(in: scratch, folder: "good"), to: url) { folder in
            let url = folder.appendingPathComponent(FixtureManifest.fileName)
            var manifest = try FixtureManifest.decoded(from: Data(contentsOf: url))
            manifest.entries.append(.init(path: "stray.txt", sha256: String(repeating: "0", count: 64), size: 0))
            try writeUncheckedManifest(manifest, in: folder)
        }
    }
}
