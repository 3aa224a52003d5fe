import Foundation
import Testing

@testable import Quire

/// Scratch held by a living owner survives every sweep; scratch nobody holds (its owner closed
/// it, or died, which closes it) is removed; nothing that is not scratch is ever touched.
@Suite struct OwnedScratchTests {
    private func names(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
    }

    @Test func aSweepRemovesOnlyScratchNobodyHolds() throws {
        let directory = TemporaryDirectory("quire-scratch")
        let parent = directory.url.appendingPathComponent("tmp", isDirectory: true)
        let outside = directory.url.appendingPathComponent("outside", isDirectory: true)
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))

        let held = try OwnedScratch.create(.folder, in: parent, prefix: ".job-")
        try Data("in use".utf8).write(to: held.url.appendingPathComponent("data"))
        let heldFile = try OwnedScratch.create(.file, in: parent, prefix: ".job-", suffix: ".part")
        let abandoned = try OwnedScratch.create(.folder, in: parent, prefix: ".job-")
        try FileManager.default.createDirectory(
            at: abandoned.url.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
        abandoned.close()
        let abandonedFile = try OwnedScratch.create(.file, in: parent, prefix: ".job-", suffix: ".part")
        abandonedFile.close()
        // Names a sweep must leave: no UUID, another prefix, a link planted under a scratch name.
        try Data().write(to: parent.appendingPathComponent(".job-notes"))
        let other = ".other-\(UUID().uuidString)"
        try Data().write(to: parent.appendingPathComponent(other))
        let link = ".job-\(UUID().uuidString)"
        try FileManager.default.createSymbolicLink(
            atPath: parent.appendingPathComponent(link).path, withDestinationPath: outside.path)

        let removed = OwnedScratch.sweep(parent) {
            OwnedScratch.isScratchName($0, prefix: ".job-")
                || OwnedScratch.isScratchName($0, prefix: ".job-", suffix: ".part")
        }
        #expect(removed == [abandoned.url.lastPathComponent, abandonedFile.url.lastPathComponent].sorted())
        #expect(FileManager.default.fileExists(atPath: held.url.appendingPathComponent("data").path))
        #expect(FileManager.default.fileExists(atPath: heldFile.url.path))
        #expect(names(in: outside) == ["keep.txt"])
        #expect(names(in: parent).contains(link))

        held.remove()
        heldFile.remove()
        #expect(names(in: parent) == [".job-notes", link, other].sorted())
    }

    @Test func scratchNamesNeedTheUUID() {
        let uuid = UUID().uuidString
        #expect(OwnedScratch.isScratchName(".a.build-\(uuid)", prefix: ".a.build-"))
        #expect(OwnedScratch.isScratchName(".a.build-\(uuid.lowercased())", prefix: ".a.build-"))
        #expect(!OwnedScratch.isScratchName(".a.build-\(uuid)x", prefix: ".a.build-"))
        #expect(!OwnedScratch.isScratchName(".a.build-cache", prefix: ".a.build-"))
        #expect(!OwnedScratch.isScratchName("a.build-\(uuid)", prefix: ".a.build-"))
        #expect(OwnedScratch.isScratchName(".a.zip.partial-\(uuid).tmp", prefix: ".a.zip.partial-", suffix: ".tmp"))
    }

    @Test func aCopyRemovesTheStagingOfACopyThatDied() throws {
        let directory = TemporaryDirectory("quire-scratch")
        let source = try Database(name: "source", config: DatabaseConfiguration(directory: directory.path))
        try source.defaultCollection().save(document: MutableDocument(id: "a", data: ["n": 1]))
        try source.close()
        let apps = directory.url.appendingPathComponent("apps", isDirectory: true)
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let dead = try OwnedScratch.create(.folder, in: apps, prefix: ".other.quire.copy-")
        try Data(count: 4096).write(to: dead.url.appendingPathComponent("db.sqlite3"))
        dead.close()
        let running = try OwnedScratch.create(.folder, in: apps, prefix: ".third.quire.copy-")

        try Database.copy(
            fromPath: directory.file("source.quire"), toDatabase: "copy",
            withConfig: DatabaseConfiguration(directory: apps.path))
        #expect(names(in: apps) == [running.url.lastPathComponent, "copy.quire"].sorted())
        running.remove()
        let copy = try Database(name: "copy", config: DatabaseConfiguration(directory: apps.path))
        defer { try? copy.close() }
        #expect(try copy.defaultCollection().document(id: "a")?.int(forKey: "n") == 1)
    }
}
