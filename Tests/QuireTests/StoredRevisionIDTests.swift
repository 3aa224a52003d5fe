import CQuireFTS
import Foundation
import Testing

@testable import Quire

@Suite struct StoredRevisionIDTests {
    private static let digest = "0123456789abcdef0011223344556677fedcba98"

    private func pack(_ text: String) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: Int(QUIRE_REVID_PACKED_MAX))
        let count = Array(text.utf8).withUnsafeBufferPointer {
            quire_revid_pack($0.baseAddress, $0.count, &bytes)
        }
        return count > 0 ? Array(bytes.prefix(Int(count))) : nil
    }

    private func unpack(_ packed: [UInt8]) -> String? {
        var text = [UInt8](repeating: 0, count: Int(QUIRE_REVID_TEXT_MAX))
        let count = packed.withUnsafeBufferPointer { quire_revid_unpack($0.baseAddress, $0.count, &text) }
        return count > 0 ? String(decoding: text.prefix(Int(count)), as: UTF8.self) : nil
    }

    @Test func quiresOwnFormPacksIntoAVarintAndTwentyBytesAndBackExactly() throws {
        let generations: [(Int, Int)] = [
            (1, 1), (9, 1), (10, 1), (127, 1), (128, 2), (16_383, 2), (16_384, 3), (2_097_151, 3),
            (2_097_152, 4), (268_435_455, 4), (268_435_456, 5), (RevisionID.maximumGeneration, 5),
        ]
        for (generation, varintBytes) in generations {
            let text = "\(generation)-\(Self.digest)"
            let packed = try #require(pack(text), "\(text)")
            #expect(packed.count == varintBytes + 20, "\(text)")
            #expect(Array(packed.suffix(20)).prefix(3) == [0x01, 0x23, 0x45])
            #expect(unpack(packed) == text)
        }
    }

    @Test func twoThousandRandomRevisionIDsComeBackExactly() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        let hex = Array("0123456789abcdef")
        for _ in 0..<2000 {
            let generation = Int(next() % UInt64(RevisionID.maximumGeneration)) + 1
            let text = "\(generation)-" + String((0..<40).map { _ in hex[Int(next() % 16)] })
            #expect(unpack(try #require(pack(text), "\(text)")) == text)
        }
    }

    @Test func everyOtherTextIsStoredAsItIs() {
        let hex40 = Self.digest
        for text in [
            "1-" + hex40.uppercased(), "1-" + String(hex40.dropLast()), "1-" + hex40 + "0", "0-" + hex40,
            "01-" + hex40, "\(RevisionID.maximumGeneration + 1)-" + hex40, "12345678901-" + hex40,
            "1-" + String(hex40.dropLast()) + "g", "1_" + hex40, "-" + hex40, "", "3-abc", "1-x",
            "+1-" + String(hex40.dropFirst()),
        ] {
            #expect(pack(text) == nil, "\(text)")
        }
    }

    /// The digits are read sixteen at a time and the rest one by one: a byte that is not a
    /// lower-case hex digit is refused at every position.
    @Test func aWrongByteAnywhereInTheDigitsKeepsTheTextAsItIs() {
        let digits = Array(Self.digest.utf8)
        for position in digits.indices {
            for wrong in Array("G/:`gAF ".utf8) + [0x00, 0x80, 0xB0] {
                var bytes = Array("7-".utf8) + digits
                bytes[2 + position] = wrong
                var packed = [UInt8](repeating: 0, count: Int(QUIRE_REVID_PACKED_MAX))
                let count = bytes.withUnsafeBufferPointer { quire_revid_pack($0.baseAddress, $0.count, &packed) }
                #expect(count == 0, "byte \(wrong) at digit \(position)")
            }
        }
    }

    @Test func bytesThatAreNotAPackedRevisionIDAreRefused() {
        let twenty = [UInt8](repeating: 0xAB, count: 20)
        for bytes in [
            [], [0x01], [0x01] + twenty.dropLast(), [0x01] + twenty + [0x00],  // lengths
            [0x00] + twenty,  // generation 0
            [0x80, 0x80, 0x80, 0x80, 0x80] + twenty,  // a varint of more than five bytes
            [0xFF, 0xFF, 0xFF, 0xFF, 0x1F] + twenty.dropLast(4),  // past 2^32 − 1, 21 bytes in all
            [0x80, 0x80, 0x80, 0x80, 0x10] + twenty,  // 2^32
            [0x81, 0x01] + twenty.dropLast(),  // 2 varint bytes and 19
        ] as [[UInt8]] {
            #expect(unpack(bytes) == nil, "\(bytes)")
        }
        #expect(unpack([0xFF, 0xFF, 0xFF, 0xFF, 0x0F] + twenty)?.hasPrefix("4294967295-abab") == true)
    }

    private func storedForm(_ database: Database, _ table: String, _ id: String) throws -> (String, Int64)? {
        try database.read { connection in
            try connection.query(
                "SELECT typeof(revid), length(CAST(revid AS BLOB)) FROM \(table) WHERE key = ?",
                [
                    .text(id)
                ]
            ) { ($0.text(at: 0) ?? "", $0.int64(at: 1)) }.first
        }
    }

    /// Quire's own IDs take 21 to 25 bytes in the document table; an ID from a peer in another
    /// form stays text; every reader (documents, listings, changes, leaves, queries) gives the
    /// same strings either way.
    @Test func ownRevisionsAreStoredPackedForeignOnesAsTextAndBothReadBackTheSame() throws {
        let f = try QueryFixture()
        let saved = MutableDocument(id: "own", data: ["v": 1])
        try f.collection.save(document: saved)
        let own = try #require(saved.revisionID)
        let tall = "200-" + Self.digest
        try f.collection.insert(
            ForeignRevision(documentID: "tall", revisionID: tall, ancestors: [], isDeleted: false, body: ["v": 2]))
        try f.collection.insert(
            ForeignRevision(documentID: "peer", revisionID: "3-abc", ancestors: ["2-abc"], isDeleted: false, body: [:]))

        let table = f.collection.table
        #expect(try storedForm(f.database, table, "own")! == ("blob", 21))
        #expect(try storedForm(f.database, table, "tall")! == ("blob", 22))
        #expect(try storedForm(f.database, table, "peer")! == ("text", 5))

        let expected = ["own": own, "peer": "3-abc", "tall": tall]
        for (id, revisionID) in expected {
            #expect(try f.collection.document(id: id)?.revisionID == revisionID)
            #expect(try f.collection.revisionInfo(id: id)?.revisionID == revisionID)
            #expect(try f.collection.leaves(id: id).first?.revisionID == revisionID)
        }
        #expect(
            Dictionary(uniqueKeysWithValues: try f.collection.changes(since: 0).map { ($0.documentID, $0.revisionID) })
                == expected)
        let rows = try f.database.createQuery(
            "SELECT meta().id, meta().revisionID FROM store.items ORDER BY meta().revisionID"
        ).execute().allResults()
        #expect(rows.map { $0.string(forKey: "revisionID") } == [own, tall, "3-abc"].sorted())

        // An edit of a packed revision builds on the same text: generation 201, parent `tall`.
        let edited = try #require(try f.collection.document(id: "tall")).toMutable().setInt(3, forKey: "v")
        try f.collection.save(document: edited)
        #expect(edited.revisionID?.hasPrefix("201-") == true)
        #expect(try f.collection.leaves(id: "tall").first?.ancestors.first == tall)
        #expect(try storedForm(f.database, table, "tall")! == ("blob", 22))
    }

    @Test func aBlobThatIsNotAPackedRevisionIDIsCorruptRevisionData() throws {
        let f = try QueryFixture()
        try f.collection.save(document: MutableDocument(id: "d", data: ["v": 1]))
        try f.collection.writing { connection in
            try connection.run("UPDATE \(f.collection.table) SET revid = x'0102' WHERE key = 'd'")
        }
        let error = #expect(throws: QuireError.self) { try f.collection.document(id: "d") }
        #expect(error?.code == .corruptRevisionData)
        #expect(error?.message.contains("blob of 2 bytes") == true)
        let query = try f.database.createQuery("SELECT meta().revisionID FROM store.items")
        #expect(throws: QuireError.self) { try query.execute().allResults() }
    }

    /// A file of schema version 5 stores every revision ID as text and may have an index on
    /// the `revid` column itself: opening it packs Quire's own IDs, keeps the others, and makes
    /// the index again on `quire_revid(revid)`, which queries then use.
    @Test func aFileOfSchemaVersionFiveIsUpgradedInPlace() throws {
        let f = try QueryFixture(name: "old")
        try f.save(["a": #"{"v":1}"#, "b": #"{"v":2}"#])
        try f.collection.insert(
            ForeignRevision(documentID: "peer", revisionID: "3-abc", ancestors: [], isDeleted: false, body: [:]))
        try f.collection.createIndex(withName: "byRev", config: ValueIndexConfiguration(["meta().revisionID"]))
        let revisionA = try #require(try f.collection.document(id: "a")?.revisionID)
        let table = f.collection.table
        let index = IndexCatalog.valueIndexName(table: table, name: "byRev")
        let path = f.database.filePath
        let indexSQL = try #require(
            try f.database.read {
                try $0.scalarText("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(index)])
            })
        #expect(indexSQL.contains("quire_revid(revid)"))
        try f.database.close()

        // As schema version 5 wrote it: text, and the index on the column.
        let connection = try Connection(path: path, role: .writer, options: Connection.Options())
        try connection.execute(
            """
            UPDATE \(table) SET revid = quire_revid(revid);
            DROP INDEX \(index);
            \(indexSQL.replacingOccurrences(of: "quire_revid(revid)", with: "revid"));
            PRAGMA user_version = 5;
            """)
        connection.close()

        let reopened = try Database(
            name: "old", config: DatabaseConfiguration(directory: f.directory.path, clock: f.clock))
        defer { try? reopened.close() }
        #expect(try reopened.read { try $0.scalarInt("PRAGMA user_version") } == StoreSchema.migrator.latestVersion)
        #expect(try storedForm(reopened, table, "a")! == ("blob", 21))
        #expect(try storedForm(reopened, table, "peer")! == ("text", 5))
        let collection = try #require(try reopened.collection(name: "items", scope: "store"))
        #expect(try collection.document(id: "a")?.revisionID == revisionA)
        let sql = try reopened.read {
            try $0.scalarText("SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = ?", [.text(index)])
        }
        #expect(sql?.contains("quire_revid(revid)") == true)
        let query = try reopened.createQuery("SELECT meta().id FROM store.items WHERE meta().revisionID = $rev")
            .with("rev", .string(revisionA))
        #expect(try query.explain().contains("USING INDEX \(index)"))
        #expect(try query.rows() == [#"{"id":"a"}"#])
    }
}
