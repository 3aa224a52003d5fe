import Foundation
import Quire
import Testing

@testable import QuireFixtures

@Suite struct FixtureManifestTests {
    private func sample() -> FixtureManifest {
        FixtureManifest(
            name: "travel",
            collections: [
                .init(name: "inventory.hotel", documentCount: 10), .init(name: "_default._default", documentCount: 0),
            ],
            indexes: [
                .init(collection: "inventory.hotel", name: "reviews", kind: .fullText, expressions: ["reviews.content"])
            ],
            blobs: ["sha1-qZk+NkcGgWq6PiVxeFDCbJzQ2J0="],
            entries: [
                .init(path: "travel.quire/db.sqlite3", sha256: String(repeating: "a", count: 64), size: 4096),
                .init(path: "travel.quire/README.txt", sha256: String(repeating: "0", count: 64), size: 0),
            ],
            checkpoints: [],
            buildTimestamp: .fallback)
    }

    @Test func recordsTheQuireLibrarysVersion() {
        #expect(sample().quireVersion == QuireVersion.current)
        #expect(QuireFixtures.quireVersion == QuireVersion.current)
    }

    @Test func roundTripsThroughStableJSON() throws {
        let manifest = sample()
        let data = try manifest.encoded()
        let decoded = try FixtureManifest.decoded(from: data)
        #expect(decoded == manifest.canonicalized())
        #expect(try decoded.encoded() == data)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasSuffix("}\n"))
        #expect(text.contains("\"buildTimestamp\" : \"2000-01-01T00:00:00Z\""))
        // Keys sorted, arrays canonical.
        #expect(text.range(of: "\"blobs\"")!.lowerBound < text.range(of: "\"buildTimestamp\"")!.lowerBound)
        #expect(
            text.range(of: "travel.quire/README.txt")!.lowerBound
                < text.range(of: "travel.quire/db.sqlite3")!.lowerBound)
        #expect(text.range(of: "_default._default")!.lowerBound < text.range(of: "inventory.hotel\"")!.lowerBound)
    }

    @Test func checkpointsMayBeAbsent() throws {
        var manifest = sample()
        manifest.checkpoints = nil
        let data = try manifest.encoded()
        #expect(!String(decoding: data, as: UTF8.self).contains("checkpoints"))
        #expect(try FixtureManifest.decoded(from: data).checkpoints == nil)
    }

    @Test func decodingNamesTheBadField() throws {
        let good = try JSONSerialization.jsonObject(with: try sample().encoded()) as? [String: Any] ?? [:]
        func check(_ fragments: [String], _ change: (inout [String: Any]) -> Void) throws {
            var object = good
            change(&object)
            let data = try JSONSerialization.data(withJSONObject: object)
            expectQuireError(.corruptData, containing: fragments) { _ = try FixtureManifest.decoded(from: data) }
        }
        try check(["missing name"]) { $0["name"] = nil }
        try check(["formatVersion is 6", "versions 1 to 5"]) { $0["formatVersion"] = 6 }
        try check(["buildTimestamp", "'yesterday'"]) { $0["buildTimestamp"] = "yesterday" }
        try check(["collections[0].name", "'nope'"]) { $0["collections"] = [["name": "nope", "documentCount": 1]] }
        try check(["collections[0].documentCount", "negative"]) {
            $0["collections"] = [["name": "a.b", "documentCount": -1]]
        }
        try check(["indexes[0].collection", "'inventory.hotel'"]) { $0["collections"] = [] }
        try check(["blobs[0]", "'md5-x'"]) { $0["blobs"] = ["md5-x"] }
        try check(["entries[0].path", "'..' component"]) {
            $0["entries"] = [["path": "../x", "sha256": String(repeating: "a", count: 64), "size": 1]]
        }
        try check(["entries[0].path", "'x' is outside the database folder 'travel.quire'"]) {
            $0["entries"] = [["path": "x", "sha256": String(repeating: "a", count: 64), "size": 1]]
        }
        try check(["entries[0].path", "'travel.quire' is outside the database folder"]) {
            $0["entries"] = [["path": "travel.quire", "sha256": String(repeating: "a", count: 64), "size": 1]]
        }
        try check(["name", "'a/b' cannot name a database folder"]) { $0["name"] = "a/b" }
        try check(["entries[0].sha256", "64 lowercase hex"]) {
            $0["entries"] = [["path": "travel.quire/x", "sha256": "ABC", "size": 1]]
        }
        try check(["entries[0].size", "is not an integer"]) {
            $0["entries"] = [["path": "x", "sha256": String(repeating: "a", count: 64), "size": "big"]]
        }
        expectQuireError(.corruptData, containing: ["not valid JSON"]) {
            _ = try FixtureManifest.decoded(from: Data("{".utf8))
        }
    }

    @Test func encodingRefusesAnInvalidManifest() {
        var manifest = sample()
        manifest.entries.append(
            .init(path: "travel.quire/README.txt", sha256: String(repeating: "b", count: 64), size: 1))
        expectQuireError(.invalidParameter, containing: ["'travel.quire/README.txt' is listed twice"]) {
            _ = try manifest.encoded()
        }
    }
}
