import Foundation
import Quire
import QuireFixturesTestSupport
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

@Suite struct DatasetGeneratorTests {
    /// Every file in `folder` with its bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in contents(of: folder) {
            let url = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[name] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test(arguments: DatasetKind.allCases)
    func sameSeedSameBytesOtherSeedOtherBytes(kind: DatasetKind) throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try DatasetGenerator(kind: kind, count: 30, seed: 9).write(to: scratch.file("a"))
        try DatasetGenerator(kind: kind, count: 30, seed: 9).write(to: scratch.file("b"))
        try DatasetGenerator(kind: kind, count: 30, seed: 10).write(to: scratch.file("c"))
        let first = try snapshot(scratch.file("a"))
        #expect(!first.isEmpty)
        #expect(first == (try snapshot(scratch.file("b"))))
        let other = try snapshot(scratch.file("c"))
        #expect(first.keys.contains("index.json"))
        let documents = first.keys.filter { $0.hasSuffix(".jsonl") }
        #expect(documents.allSatisfy { first[$0] != other[$0] })
    }

    @Test func peopleAreAboutTwoHundredFiftyBytesOfSortedKeyJSON() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        try DatasetGenerator(kind: .names, count: 200, seed: 3).write(to: scratch.file("n"))
        let text = try String(contentsOf: scratch.file("n/_default.jsonl"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 200)
        let average = lines.map(\.utf8.count).reduce(0, +) / lines.count
        #expect((200...380).contains(average))
        let first = String(lines[0])
        #expect(first.hasPrefix("{\"_id\":\"person_001\",\"birthday\":"))
        // Re-serialising with Foundation's sorted keys gives the same bytes.
        let object = try JSONSerialization.jsonObject(with: Data(first.utf8))
        let again = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        #expect(String(decoding: again, as: UTF8.self) == first)
        #expect(
            try String(contentsOf: scratch.file("n/index.json"), encoding: .utf8)
                == "{\"collections\":[\"_default\"],\"name\":\"names-200\"}\n")
    }

    @Test func refusesABadCountOrANonEmptyFolder() throws {
        let scratch = try ScratchFolder()
        defer { scratch.cleanUp() }
        expectQuireError(.invalidParameter, containing: ["count 0"]) {
            try DatasetGenerator(kind: .names, count: 0, seed: 1).write(to: scratch.file("x"))
        }
        _ = try scratch.write("hi", to: "full/file.txt")
        expectQuireError(.invalidParameter, containing: ["is not empty"]) {
            try DatasetGenerator(kind: .names, count: 1, seed: 1).write(to: scratch.file("full"))
        }
    }

    @Test func jsonSerialisationIsFixed() throws {
        let value = JSONValue.object([
            "b": .array([.int(-3), .double(0.5), .double(47.0), .bool(true), .null]),
            "a": .string("quote\" back\\ tab\t nl\n bell\u{07} café"),
            "É": .int(1), "Z": .int(2),
        ])
        let text = String(decoding: try JSONWriter.bytes(value), as: UTF8.self)
        #expect(text == #"{"Z":2,"a":"quote\" back\\ tab\t nl\n bell\u0007 café","b":[-3,0.5,47.0,true,null],"É":1}"#)
    }

    @Test func seededGeneratorIsStableAndUnbiasedInRange() {
        var first = SeededGenerator(seed: 123)
        var second = SeededGenerator(seed: 123)
        let a = (0..<100).map { _ in first.next() }
        let b = (0..<100).map { _ in second.next() }
        #expect(a == b)
        var random = SeededGenerator(seed: 5)
        var seen = Set<Int>()
        for _ in 0..<1000 { seen.insert(random.int(in: 3...7)) }
        #expect(seen == [3, 4, 5, 6, 7])
        #expect(IdentifierFormat.letters(0, width: 2) == "AA")
        #expect(IdentifierFormat.letters(675, width: 2) == "ZZ")
        #expect(IdentifierFormat.letters(676, width: 2) == "AAA")
    }
}
