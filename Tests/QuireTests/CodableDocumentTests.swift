import Foundation
import Testing

@testable import Quire

/// Codable models as documents and query results, after Couchbase Lite's Swift CodableTest
/// (couchbase-lite-ios Swift/Tests/CodableTest.swift); the models and data are Quire's own.
@Suite struct CodableDocumentTests {
    struct Name: Codable, Equatable {
        var given: String
        var family: String
    }
    struct Phone: Codable, Equatable {
        var digits: [String]
        var preferred: Bool
    }
    final class Contact: Codable, Equatable {
        var city: String
        var phones: [Phone]
        init(city: String, phones: [Phone]) {
            self.city = city
            self.phones = phones
        }
        static func == (a: Contact, b: Contact) -> Bool { a.city == b.city && a.phones == b.phones }
    }
    class Member: Codable, Equatable {
        @DocumentID var key: String?
        var name: Name
        var contacts: [Contact]
        var hobbies: [String]
        init(key: String? = nil, name: Name, contacts: [Contact], hobbies: [String]) {
            self.key = key
            self.name = name
            self.contacts = contacts
            self.hobbies = hobbies
        }
        static func == (a: Member, b: Member) -> Bool {
            a.name == b.name && a.contacts == b.contacts && a.hobbies == b.hobbies
        }
    }
    final class Senior: Member {
        @DocumentID var tag: String?
        var years: Int32
        init(member: Member, years: Int32) {
            self.years = years
            super.init(name: member.name, contacts: member.contacts, hobbies: member.hobbies)
        }
        enum CodingKeys: String, CodingKey { case years }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            years = try container.decode(Int32.self, forKey: .years)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(years, forKey: .years)
            try super.encode(to: container.superEncoder())
        }
    }
    final class Boat: Codable {
        @DocumentID var id: String?
        var skipper: Member
        var knots: Float
        var draft: Double
        init(id: String?, skipper: Member, knots: Float, draft: Double) {
            self.id = id
            self.skipper = skipper
            self.knots = knots
            self.draft = draft
        }
    }
    struct Pet: Codable, Equatable {
        var kind: String
        var legs: Int?
    }
    final class Home: Codable {
        @DocumentID var id: String?
        var members: [Member]
        var pets: [String: Pet]
        init(id: String?, members: [Member], pets: [String: Pet]) {
            self.id = id
            self.members = members
            self.pets = pets
        }
    }
    final class Memo: Codable {
        @DocumentID var id: String?
        var title: String
        var body: Blob
        init(title: String, body: Blob) {
            self.title = title
            self.body = body
        }
    }
    final class Filing: Codable {
        @DocumentID var id: String?
        var filed: Date
        var memo: Memo
        init(filed: Date, memo: Memo) {
            self.filed = filed
            self.memo = memo
        }
    }
    final class Album: Codable {
        @DocumentID var id: String?
        var pictures: [Blob]
        init(pictures: [Blob]) { self.pictures = pictures }
    }
    final class Wishes: Codable, Equatable {
        @DocumentID var id: String?
        var colour: String?
        var pet: Pet?
        init(colour: String?, pet: Pet?) {
            self.colour = colour
            self.pet = pet
        }
        static func == (a: Wishes, b: Wishes) -> Bool { a.colour == b.colour && a.pet == b.pet }
    }
    final class SmallSum: Codable {
        @DocumentID var id: String?
        var left: Int16
        var right: Int16
    }
    final class BigSum: Codable {
        @DocumentID var id: String?
        var left: Int64
        var right: Int64
        init(left: Int64, right: Int64) {
            self.left = left
            self.right = right
        }
    }

    static var members: [Member] {
        [
            Member(
                key: "m-01", name: Name(given: "Ines", family: "Okafor"),
                contacts: [
                    Contact(city: "Lagos", phones: [Phone(digits: ["100", "101"], preferred: true)]),
                    Contact(city: "Porto", phones: [Phone(digits: ["200"], preferred: false)]),
                ], hobbies: ["rowing"]),
            Member(
                key: "m-02", name: Name(given: "Tomas", family: "Varga"),
                contacts: [Contact(city: "Pecs", phones: [])], hobbies: ["chess", "tea"]),
            Member(key: "m-03", name: Name(given: "Yuki", family: "Mori"), contacts: [], hobbies: []),
        ]
    }

    /// A fresh copy of member `index`, as a model decoded from a data set is.
    static func member(_ index: Int = 0) throws -> Member {
        let original = members[index]
        let copy = try JSONDecoder().decode(Member.self, from: JSONEncoder().encode(original))
        return copy
    }

    private func makeCollection(_ directory: TemporaryDirectory) throws -> (Database, Collection) {
        let database = try Database(name: "codable", config: DatabaseConfiguration(directory: directory.path))
        return (database, try database.defaultCollection())
    }

    /// Saves members as plain documents keyed by their `key`, as a data set loaded into the collection.
    private func load(_ count: Int, into collection: Collection) throws {
        for index in 0..<count {
            let member = try Self.member(index)
            try collection.save(from: member, id: member.key!)
        }
    }

    private func matches(_ member: Member, _ document: Document?) throws -> Bool {
        guard let document else { return false }
        // The body read as plain JSON: the ID is not in it.
        struct Body: Decodable {
            var name: Name
            var contacts: [Contact]
            var hobbies: [String]
        }
        let body = try JSONDecoder().decode(Body.self, from: Data(document.toJSON().utf8))
        return body.name == member.name && body.contacts == member.contacts && body.hobbies == member.hobbies
    }

    // covers: CodableTest.testCollectionEncode
    @Test func aModelSavesAndLearnsItsID() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let member = try Self.member()
        try collection.save(from: member)
        #expect(member.key == "m-01")
        let document = try #require(try collection.document(id: "m-01"))
        #expect(try matches(member, document))
        #expect(document.value(forKey: "key") == nil)
    }

    // covers: CodableTest.testCollectionDecode
    @Test func aDocumentDecodesWithItsID() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let member = try #require(try collection.document(id: "m-01", as: Member.self))
        #expect(member.key == "m-01")
        #expect(try matches(member, collection.document(id: "m-01")))
        #expect(try collection.document(id: "none", as: Member.self) == nil)
    }

    // covers: CodableTest.testCollectionUpdate
    @Test func aDecodedModelSavesItsChanges() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let member = try #require(try collection.document(id: "m-01", as: Member.self))
        member.hobbies = ["sailing", "baking"]
        member.contacts[0].phones[0].digits.removeLast()
        member.contacts[1].phones[0].digits[0] = "+999"
        try collection.save(from: member)
        #expect(try matches(member, collection.document(id: "m-01")))
        member.name = Name(given: "Ada", family: "Byron")
        try collection.save(from: member)
        #expect(try matches(member, collection.document(id: "m-01")))
        #expect(try collection.document(id: "m-01")?.revisionID?.hasPrefix("3-") == true)
    }

    // covers: CodableTest.testCollectionDelete
    @Test func aModelDeletesAndSavesAgain() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let member = try Self.member()
        try collection.save(from: member)
        try collection.delete(for: member)
        #expect(try collection.document(id: "m-01") == nil)
        member.hobbies = ["reading"]
        try collection.save(from: member)
        #expect(try matches(member, collection.document(id: "m-01")))
        try collection.purge(for: member)
        #expect(try collection.revisionInfo(id: "m-01") == nil)
    }

    // covers: CodableTest.testCollectionSaveWithConflictHandler
    @Test func aConflictHandlerSeesBothModels() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let first = try Self.member()
        try collection.save(from: first)
        let second = try #require(try collection.document(id: "m-01", as: Member.self))
        first.hobbies = ["hiking"]
        try collection.save(from: first)
        second.name = Name(given: "Changed", family: "Twice")
        var calls = 0
        let saved = try collection.save(from: second) { mine, stored in
            calls += 1
            #expect(stored == first)
            #expect(mine === second)
            mine.name = Name(given: "Merged", family: "Both")
            mine.hobbies = ["swimming"]
            return true
        }
        #expect(saved && calls == 1)
        #expect(second.name.given == "Merged")
        #expect(try matches(second, collection.document(id: "m-01")))
        let refused = try collection.save(from: first) { _, _ in false }
        #expect(!refused)
    }

    // covers: CodableTest.testCollectionSaveWithLastWriteWins
    @Test func lastWriteWinsOverwritesAChangedDocument() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let first = try Self.member()
        try collection.save(from: first)
        let second = try #require(try collection.document(id: "m-01", as: Member.self))
        first.hobbies = ["hiking"]
        try collection.save(from: first)
        second.name = Name(given: "Last", family: "Writer")
        #expect(try collection.save(from: second, concurrencyControl: .lastWriteWins))
        #expect(try matches(second, collection.document(id: "m-01")))
    }

    // covers: CodableTest.testCollectionSaveWithFailOnConflict
    @Test func failOnConflictKeepsTheStoredDocument() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let first = try Self.member()
        try collection.save(from: first)
        let second = try #require(try collection.document(id: "m-01", as: Member.self))
        first.hobbies = ["hiking"]
        try collection.save(from: first)
        second.name = Name(given: "Too", family: "Late")
        #expect(try !collection.save(from: second, concurrencyControl: .failOnConflict))
        #expect(try matches(first, collection.document(id: "m-01")))
    }

    // covers: CodableTest.testQueryResultDecode
    @Test func aResultRowDecodes() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let query = try database.createQuery("SELECT meta().id AS key, name, contacts, hobbies FROM _ LIMIT 1")
        let row = try #require(try query.execute().next())
        let member = try row.data(as: Member.self)
        #expect(member.key == "m-01")
        #expect(try matches(member, collection.document(id: "m-01")))
    }

    // covers: CodableTest.testQueryResultDecodeWithDataKey
    @Test func aResultRowDecodesThroughItsDataKey() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let query = try database.createQuery("SELECT meta().id AS key, * FROM _ LIMIT 1")
        let member = try #require(try query.execute().next()).data(as: Member.self, dataKey: "_")
        #expect(member.key == "m-01")
        #expect(try matches(member, collection.document(id: "m-01")))
        // A model read from a query saves onto the document's current revision.
        member.hobbies = ["kites"]
        #expect(try collection.save(from: member, concurrencyControl: .failOnConflict))
    }

    // covers: CodableTest.testQueryResultDecodeWithDataKeyOptionalProperties
    @Test func optionalPropertiesDecodeThroughTheDataKey() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        let wishes = Wishes(colour: "blue", pet: Pet(kind: "whale", legs: nil))
        try collection.save(from: wishes)
        let query = try database.createQuery("SELECT meta().id AS id, * FROM _ LIMIT 1")
        let decoded = try #require(try query.execute().next()).data(as: Wishes.self, dataKey: "_")
        #expect(decoded.id == wishes.id && decoded.id != nil)
        #expect(decoded == wishes)
        #expect(decoded.pet?.legs == nil)
    }

    // covers: CodableTest.testQueryResultSetDecode
    @Test func aResultSetDecodes() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(3, into: collection)
        let query = try database.createQuery(
            "SELECT meta().id AS key, name, contacts, hobbies FROM _ ORDER BY meta().id")
        let members = try query.execute().data(as: Member.self)
        #expect(members.map(\.key) == ["m-01", "m-02", "m-03"])
        for member in members { #expect(try matches(member, collection.document(id: member.key!))) }
    }

    // covers: CodableTest.testQueryResultSetDecodeWithDataKey
    @Test func aResultSetDecodesThroughItsDataKey() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(3, into: collection)
        let query = try database.createQuery("SELECT meta().id AS key, * FROM _ ORDER BY meta().id")
        let members = try query.execute().data(as: Member.self, dataKey: "_")
        #expect(members.map(\.key) == ["m-01", "m-02", "m-03"])
        for member in members { #expect(try matches(member, collection.document(id: member.key!))) }
    }

    // covers: CodableTest.testQueryResultDecodeMissingID
    @Test func aRowWithoutTheIDColumnIsAnInvalidQuery() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let row = try #require(try database.createQuery("SELECT * FROM _ LIMIT 1").execute().next())
        let error = #expect(throws: QuireError.self) { try row.data(as: Member.self) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("'key'") == true)
    }

    // covers: CodableTest.testQueryResultDecodeMissingField
    @Test func aRowWithoutAPropertyColumnIsAnInvalidQuery() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let query = try database.createQuery("SELECT meta().id AS key, contacts, hobbies FROM _ LIMIT 1")
        let row = try #require(try query.execute().next())
        let error = #expect(throws: QuireError.self) { try row.data(as: Member.self) }
        #expect(error?.code == .invalidQuery)
        #expect(error?.message.contains("'name'") == true)
    }

    // covers: CodableTest.testQueryResultDecodeNonDocumentModel
    @Test func aColumnDecodesAsAPlainValue() throws {
        let directory = TemporaryDirectory()
        let (database, collection) = try makeCollection(directory)
        try load(1, into: collection)
        let row = try #require(
            try database.createQuery("SELECT contacts[0] AS contact FROM _ LIMIT 1").execute().next())
        let contact = try row.data(as: Contact.self, dataKey: "contact")
        #expect(contact == Self.members[0].contacts[0])
    }

    // covers: CodableTest.testCollectionDecodeIncorrectSchema
    @Test func aBodyOfAnotherShapeIsADecodingError() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let document = try MutableDocument(
            id: "odd", json: #"{"name": {"given": "A", "family": "B"}, "contacts": 5, "hobbies": ["x"]}"#)
        try collection.save(document: document)
        let error = #expect(throws: QuireError.self) { try collection.document(id: "odd", as: Member.self) }
        #expect(error?.code == .decodingError)
        #expect(error?.errorCode == 18001)
        #expect(error?.message.contains("'contacts'") == true)
    }

    // covers: CodableTest.testCollectionEncodeNonDocumentModel
    @Test func aClassWithoutADocumentIDIsRefused() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let error = #expect(throws: QuireError.self) { try collection.save(from: Self.members[0].contacts[0]) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.message.contains("@DocumentID") == true)
    }

    // covers: CodableTest.testCollectionEncodeGeneratedId
    @Test func aNilIDIsGenerated() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let member = try Self.member()
        member.key = nil
        try collection.save(from: member)
        let id = try #require(member.key)
        #expect(try collection.document(id: id) != nil)
    }

    // covers: CodableTest.testCollectionEncodeNested
    @Test func aNestedModelIsAnObject() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let boat = Boat(id: "boat-1", skipper: try Self.member(), knots: 12.5, draft: 1.7)
        try collection.save(from: boat)
        let document = try #require(try collection.document(id: "boat-1"))
        #expect(document.float(forKey: "knots") == 12.5)
        #expect(document.double(forKey: "draft") == 1.7)
        #expect(document["skipper"]["name"]["given"].string == "Ines")
        #expect(document["skipper"]["key"].string == "m-01")
        let loaded = try #require(try collection.document(id: "boat-1", as: Boat.self))
        #expect(loaded.skipper == boat.skipper && loaded.skipper.key == "m-01")
    }

    // covers: CodableTest.testCollectionEncodeArrayNested
    @Test func modelsInArraysAndDictionariesRoundTrip() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let home = Home(
            id: "home-1", members: try (0..<3).map { try Self.member($0) },
            pets: ["Tib": Pet(kind: "cat", legs: 4), "Gil": Pet(kind: "fish", legs: nil)])
        try collection.save(from: home)
        let document = try #require(try collection.document(id: "home-1"))
        #expect(document["members"][2]["name"]["given"].string == "Yuki")
        #expect(document["pets"]["Gil"].dictionary?.value(forKey: "legs") is NSNull)
        let loaded = try #require(try collection.document(id: "home-1", as: Home.self))
        #expect(loaded.members == home.members && loaded.pets == home.pets)
    }

    // covers: CodableTest.testCollectionEncodeSubclass
    @Test func aSubclassKeepsItsSuperclassUnderSuper() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let senior = Senior(member: try Self.member(), years: 71)
        senior.tag = "senior-1"
        try collection.save(from: senior)
        let document = try #require(try collection.document(id: "senior-1"))
        #expect(document.int(forKey: "years") == 71)
        #expect(document["super"]["name"]["family"].string == "Okafor")
        let loaded = try #require(try collection.document(id: "senior-1", as: Senior.self))
        #expect(loaded.years == 71 && (loaded as Member) == (senior as Member))
        #expect(loaded.tag == "senior-1")
    }

    // covers: CodableTest.testCollectionEncodeAndDecodeBlob
    @Test func aBlobPropertyIsStoredAsABlob() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let body = Blob(contentType: "text/plain", data: Data("minutes of the meeting".utf8))
        let memo = Memo(title: "Minutes", body: body)
        try collection.save(from: memo)
        let id = try #require(memo.id)
        let document = try #require(try collection.document(id: id))
        let stored = try #require(document.blob(forKey: "body"))
        #expect(stored == body)
        #expect(try stored.readContent() == Data("minutes of the meeting".utf8))
        let loaded = try #require(try collection.document(id: memo.id!, as: Memo.self))
        #expect(loaded.body == body)
    }

    // covers: CodableTest.testCollectionEncodeAndDecodeNestedBlob
    @Test func aNestedBlobIsStoredAsABlob() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let body = Blob(contentType: "text/plain", data: Data("filed away".utf8))
        let filing = Filing(filed: Date(), memo: Memo(title: "Filed", body: body))
        try collection.save(from: filing)
        let id = try #require(filing.id)
        let document = try #require(try collection.document(id: id))
        #expect(document["memo"]["body"].blob == body)
        let loaded = try #require(try collection.document(id: filing.id!, as: Filing.self))
        #expect(loaded.memo.body == body)
        #expect(abs(loaded.filed.timeIntervalSince(filing.filed)) < 0.001)
    }

    // covers: CodableTest.testCollectionDecodeISO8601Date
    @Test func aDateSetOnADocumentDecodes() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let now = Date()
        let memo = MutableDictionaryObject()
        memo.setValue(NSNull(), forKey: "id")
        memo.setValue("Dated", forKey: "title")
        memo.setValue(Blob(contentType: "text/plain", data: Data("x".utf8)), forKey: "body")
        let document = MutableDocument()
        document.setValue(now, forKey: "filed")
        document.setValue(memo, forKey: "memo")
        try collection.save(document: document)
        let loaded = try #require(try collection.document(id: document.id, as: Filing.self))
        #expect(abs(loaded.filed.timeIntervalSince1970 - now.timeIntervalSince1970) < 0.001)
        #expect(loaded.id == document.id && loaded.memo.id == nil)
    }

    // covers: CodableTest.testCollectionDecodeISO8601DateWithDefaultFormatter
    @Test func aDateInFoundationsISO8601FormDecodes() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let now = Date()
        let memo = MutableDictionaryObject()
        memo.setValue("Dated", forKey: "title")
        memo.setValue(Blob(contentType: "text/plain", data: Data("x".utf8)), forKey: "body")
        let document = MutableDocument()
        document.setValue(ISO8601DateFormatter().string(from: now), forKey: "filed")
        document.setValue(memo, forKey: "memo")
        try collection.save(document: document)
        let loaded = try #require(try collection.document(id: document.id, as: Filing.self))
        #expect(abs(loaded.filed.timeIntervalSince1970 - now.timeIntervalSince1970) < 1)
        document.setValue("last tuesday", forKey: "filed")
        try collection.save(document: document)
        let error = #expect(throws: QuireError.self) { try collection.document(id: document.id, as: Filing.self) }
        #expect(error?.code == .decodingError)
        #expect(error?.message.contains("'filed'") == true)
    }

    // covers: CodableTest.testCollectionEncodeAndDecodeArrayNestedBlob
    @Test func blobsInAnArrayAreStoredAsBlobs() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let pictures = [
            Blob(contentType: "application/json", data: Data(#"{"a": 1}"#.utf8)),
            Blob(contentType: "image/png", data: Data()),
            Blob(contentType: "text/plain", data: Data("caption".utf8)),
        ]
        let album = Album(pictures: pictures)
        try collection.save(from: album)
        let id = try #require(album.id)
        let document = try #require(try collection.document(id: id))
        let stored = try #require(document.array(forKey: "pictures")).toArray().compactMap { $0 as? Blob }
        #expect(stored == pictures)
        let loaded = try #require(try collection.document(id: album.id!, as: Album.self))
        #expect(loaded.pictures == pictures)
    }

    // covers: CodableTest.testCollectionDecodeMismatchIntSizes
    @Test func anIntegerTooLargeForItsPropertyIsADecodingError() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let big = BigSum(left: .max, right: .min)
        try collection.save(from: big)
        let error = #expect(throws: QuireError.self) { try collection.document(id: big.id ?? "", as: SmallSum.self) }
        #expect(error?.code == .decodingError)
        #expect(error?.message.contains("'left'") == true)
        #expect(error?.message.contains("Int16") == true)
    }

    // covers: CodableTest.testCollectionEncodeAndDecodeNil
    @Test func nilPropertiesAreStoredAsNull() throws {
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let wishes = Wishes(colour: nil, pet: Pet(kind: "whale", legs: nil))
        try collection.save(from: wishes)
        let loaded = try collection.document(id: wishes.id ?? "", as: Wishes.self)
        #expect(loaded == wishes)
        let document = try #require(try collection.document(id: wishes.id!))
        #expect(document.value(forKey: "colour") is NSNull)
        #expect(document.dictionary(forKey: "pet")?.value(forKey: "legs") is NSNull)
    }

    @Test func valuesWithNoDocumentFormAreEncodingErrors() throws {
        struct Raw: Encodable { var bytes: Data }
        struct Infinite: Encodable { var ratio: Double }
        let directory = TemporaryDirectory()
        let (_, collection) = try makeCollection(directory)
        let raw = #expect(throws: QuireError.self) { try collection.save(from: Raw(bytes: Data([1]))) }
        #expect(raw?.code == .encodingError && raw?.message.contains("'bytes'") == true)
        let infinite = #expect(throws: QuireError.self) { try collection.save(from: Infinite(ratio: .infinity)) }
        #expect(infinite?.code == .encodingError && infinite?.message.contains("'ratio'") == true)
        let list = #expect(throws: QuireError.self) { try collection.save(from: [1, 2], id: "list") }
        #expect(list?.code == .encodingError)
    }
}
