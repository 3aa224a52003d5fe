import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtures

@Suite struct FixtureInspectorTests {
    @Test func reportsTheManifestCountsAndSizes() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let (archive, inspection) = try withArchiveLock {
            let archive = try SampleFixture.buildTravel(in: scratch)
            return (archive, try FixtureInspector.inspect(archive: archive))
        }
        #expect(inspection.archive == "travel.quire.zip")
        #expect(inspection.archiveBytes == Int64((try Data(contentsOf: archive)).count))
        #expect(inspection.manifest.name == "travel")
        #expect(inspection.blobCount == 2 && inspection.blobBytes > 0)
        #expect(inspection.databaseBytes == inspection.manifest.entries.first?.size)
        #expect(
            inspection.collections.map(\.name) == [
                "_default._default", "inventory.airline", "inventory.airport", "inventory.hotel", "inventory.landmark",
                "inventory.route",
            ])
        #expect(inspection.collections.map(\.documentCount) == [0, 2, 4, 4, 4, 8])
        #expect(inspection.collections.allSatisfy { $0.manifestDocumentCount == $0.documentCount })
        let hotels = try #require(inspection.collections.first { $0.name == "inventory.hotel" })
        #expect(hotels.bodyBytes > 4 * 1_500)
        #expect(inspection.text.contains("    inventory.hotel     4 documents, \(hotels.bodyBytes) bytes of JSON\n"))
        #expect(inspection.text.contains("2 blobs"))

        let json = try FixtureInspector.json(inspection)
        #expect(try JSONDecoder().decode(FixtureInspection.self, from: json) == inspection)
        #expect(String(decoding: json, as: UTF8.self).hasPrefix("{\n  \"archive\" : \"travel.quire.zip\""))
    }

    @Test func refusesWhatItCannotRead() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        let text = try scratch.write("nope", to: "x.zip")
        expectQuireError(.corruptData, containing: ["not a readable archive"]) {
            _ = try withArchiveLock { try FixtureInspector.inspect(archive: text) }
        }
    }
}
