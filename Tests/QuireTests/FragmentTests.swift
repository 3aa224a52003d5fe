import Foundation
import Testing

@testable import Quire

/// Subscript reads (``Fragment``, ``DocumentFragment``) as Couchbase Lite's FragmentTest reads
/// them: each step of a missing path is a fragment that does not exist, and the typed accessors
/// give their type's default.
@Suite struct FragmentTests {
    private struct Store {
        let directory = TemporaryDirectory()
        let database: Database
        let collection: Collection

        init() throws {
            database = try Database(name: "fragments", config: DatabaseConfiguration(directory: directory.path))
            collection = try database.defaultCollection()
        }

        /// Saves a document and reads it back.
        func saved(_ data: [String: Any], id: String = "doc1") throws -> Document {
            try collection.save(document: MutableDocument(id: id, data: data))
            return try #require(try collection.document(id: id))
        }
    }

    /// What every fragment of a value that is not a scalar of its accessor's type reads as.
    private func expectNoScalar(_ fragment: Fragment) {
        #expect(fragment.string == nil)
        #expect(fragment.date == nil)
        #expect(fragment.int == 0)
        #expect(fragment.float == 0)
        #expect(fragment.double == 0)
    }

    // covers: FragmentTest.testBasicGetFragmentValues
    @Test func pathsThroughDictionariesAndArraysRead() throws {
        let doc = MutableDocument(id: "doc1")
        doc.setData([
            "name": "Jason", "address": ["street": "1 Main Street", "phones": ["mobile": "650-123-4567"]],
            "references": [["name": "Scott"], ["name": "Sam"]],
        ])
        #expect(doc["name"].string == "Jason")
        #expect(doc["address"]["street"].string == "1 Main Street")
        #expect(doc["address"]["phones"]["mobile"].string == "650-123-4567")
        #expect(doc["references"][0]["name"].string == "Scott")
        #expect(doc["references"][1]["name"].string == "Sam")
        #expect(doc["references"][2]["name"].value == nil)
        #expect(doc["dummy"]["dummy"]["dummy"].value == nil)
        #expect(doc["dummy"]["dummy"][0]["dummy"].value == nil)
    }

    // covers: FragmentTest.testGetDocFragmentWithID
    @Test func aCollectionSubscriptReadsASavedDocument() throws {
        let store = try Store()
        _ = try store.saved(["address": ["street": "1 Main street", "city": "Mountain View", "state": "CA"]])
        let doc = store.collection["doc1"]
        #expect(doc.exists)
        #expect(doc.document?.id == "doc1")
        #expect(doc["address"]["street"].string == "1 Main street")
        #expect(doc["address"]["city"].string == "Mountain View")
        #expect(doc["address"]["state"].string == "CA")
    }

    // covers: FragmentTest.testGetDocFragmentWithNonExistingID
    @Test func aCollectionSubscriptOfAMissingDocumentDoesNotExist() throws {
        let store = try Store()
        let doc = store.collection["doc1"]
        #expect(!doc.exists)
        #expect(doc.document == nil)
        #expect(doc["address"]["street"].string == nil)
        #expect(doc["address"]["city"].string == nil)
        // A deleted document does not exist either.
        _ = try store.saved(["a": 1], id: "gone")
        try store.collection.delete(document: try #require(try store.collection.document(id: "gone")))
        #expect(!store.collection["gone"].exists)
    }

    // covers: FragmentTest.testGetDocFragmentWithIDFromCollection
    @Test func aNamedCollectionsSubscriptFollowsItsDocuments() throws {
        let store = try Store()
        let collection = try store.database.createCollection(name: "colA", scope: "scopeA")
        #expect(!collection["doc1"].exists)
        try collection.save(document: MutableDocument(id: "doc1", data: ["address": ["street": "1 Main street"]]))
        #expect(collection["doc1"].exists)
        #expect(collection["doc1"]["address"]["street"].string == "1 Main street")
        #expect(!store.collection["doc1"].exists)
    }

    // covers: FragmentTest.testGetFragmentFromDictionaryValue, FragmentTest.testGetNestedDictionaryFragment
    @Test func aDictionaryFragment() throws {
        let store = try Store()
        let address: [String: Any] = ["street": "1 Main street", "phones": ["mobile": "650-123-4567"]]
        let d = try store.saved(["address": address])
        for (fragment, expected) in [(d["address"], address), (d["address"]["phones"], ["mobile": "650-123-4567"])] {
            #expect(fragment.exists)
            expectNoScalar(fragment)
            #expect(fragment.boolean)
            #expect(fragment.array == nil)
            let dictionary = try #require(fragment.dictionary)
            #expect(dictionary === (fragment.value as? DictionaryObject))
            #expect(NSDictionary(dictionary: dictionary.toDictionary()) == NSDictionary(dictionary: expected))
        }
    }

    // covers: FragmentTest.testGetFragmentFromArrayValue, FragmentTest.testGetNestedArrayFragments
    @Test func anArrayFragment() throws {
        let store = try Store()
        let d = try store.saved([
            "references": [["name": "Scott"], ["name": "Sam"]], "nested-array": [[1, 2, 3], [4, 5, 6]],
        ])
        for key in ["references", "nested-array"] {
            let fragment = d[key]
            #expect(fragment.exists)
            expectNoScalar(fragment)
            #expect(fragment.boolean)
            #expect(fragment.dictionary == nil)
            let array = try #require(fragment.array)
            #expect(array === (fragment.value as? ArrayObject))
            #expect(array.count == 2)
        }
        #expect(d["nested-array"][1][2].int == 6)
    }

    // covers: FragmentTest.testGetFragmentFromInteger, FragmentTest.testGetFragmentFromFloat, FragmentTest.testGetFragmentFromDouble, FragmentTest.testGetFragmentFromBoolean
    @Test func numberAndBooleanFragments() throws {
        let store = try Store()
        let doc = MutableDocument(id: "doc1")
        doc.setValue(10, forKey: "integer")
        doc.setValue(Float(100.10), forKey: "float")
        doc.setValue(99.99, forKey: "double")
        doc.setValue(true, forKey: "boolean")
        try store.collection.save(document: doc)
        let d = try #require(try store.collection.document(id: "doc1"))
        for (key, int, double) in [
            ("integer", 10, 10.0), ("float", 100, 100.1), ("double", 99, 99.99), ("boolean", 1, 1.0),
        ] {
            let fragment = d[key]
            #expect(fragment.exists)
            #expect(fragment.string == nil && fragment.date == nil)
            #expect(fragment.int == int)
            #expect(abs(fragment.double - double) < 0.001)
            #expect(abs(Double(fragment.float) - double) < 0.001)
            #expect(fragment.boolean)
            #expect(fragment.array == nil && fragment.dictionary == nil)
        }
        #expect(d["integer"].value as? Int == 10)
        #expect(d["double"].value as? Double == 99.99)
        #expect(d["boolean"].value as? Bool == true)
    }

    // covers: FragmentTest.testGetFragmentFromDate, FragmentTest.testGetFragmentFromString
    @Test func stringAndDateFragments() throws {
        let store = try Store()
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let doc = MutableDocument(id: "doc1")
        doc.setValue(date, forKey: "date")
        doc.setValue("hello world", forKey: "string")
        try store.collection.save(document: doc)
        let d = try #require(try store.collection.document(id: "doc1"))
        let dateText = try #require(d.string(forKey: "date"))
        #expect(d["date"].string == dateText)
        #expect(abs(try #require(d["date"].date).timeIntervalSince(date)) < 0.001)
        #expect(d["string"].string == "hello world")
        #expect(d["string"].date == nil)
        for key in ["date", "string"] {
            let fragment = d[key]
            #expect(fragment.exists)
            #expect(fragment.int == 0 && fragment.float == 0 && fragment.double == 0)
            #expect(fragment.boolean)
            #expect(fragment.array == nil && fragment.dictionary == nil)
        }
    }

    // covers: FragmentTest.testGetNestedNonExistingDictionaryFragment, FragmentTest.testGetNestedNonExistingArrayFragments
    @Test func missingStepsReadAsDefaults() throws {
        let store = try Store()
        let d = try store.saved(["address": ["street": "1 Main street"], "nested-array": [[1, 2, 3], [4, 5, 6]]])
        for fragment in [d["address"]["country"], d["nested-array"][2], d["nested-array"][-1]] {
            #expect(!fragment.exists)
            expectNoScalar(fragment)
            #expect(!fragment.boolean)
            #expect(fragment.array == nil && fragment.dictionary == nil && fragment.value == nil)
        }
    }

    // MARK: Setting through fragments (MutableFragment)

    private static var person: [String: Any] {
        [
            "name": "Jason", "address": ["street": "1 Main street", "phones": ["mobile": "650-123-4567"]],
        ]
    }

    private func expectPerson(_ fragment: Fragment) {
        #expect(fragment["name"].string == "Jason")
        #expect(fragment["address"]["street"].string == "1 Main street")
        #expect(fragment["address"]["phones"]["mobile"].string == "650-123-4567")
    }

    private func roundTrip(_ doc: MutableDocument) throws -> Document {
        let store = try Store()
        try store.collection.save(document: doc)
        return try #require(try store.collection.document(id: doc.id))
    }

    // covers: FragmentTest.testBasicSetFragmentValues
    @Test func settingThroughNestedFragments() throws {
        let doc = MutableDocument(id: "doc1")
        doc["name"].value = "Jason"
        doc["address"].value = MutableDictionaryObject()
        doc["address"]["street"].value = "1 Main Street"
        doc["address"]["phones"].value = MutableDictionaryObject()
        doc["address"]["phones"]["mobile"].value = "650-123-4567"
        #expect(doc["name"].string == "Jason")
        #expect(doc["address"]["street"].string == "1 Main Street")
        #expect(doc["address"]["phones"]["mobile"].string == "650-123-4567")
        let d = try roundTrip(doc)
        #expect(d["address"]["phones"]["mobile"].string == "650-123-4567")
    }

    // covers: FragmentTest.testDictionaryFragmentSet
    @Test func settingScalarsThroughFragments() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let doc = MutableDocument(id: "doc1")
        doc["string"].value = "value"
        doc["bool"].value = true
        doc["int"].value = 7
        doc["float"].value = Float(2.2)
        doc["double"].value = 2.2
        doc["date"].value = date
        let d = try roundTrip(doc)
        #expect(d["string"].string == "value")
        #expect(d["bool"].boolean)
        #expect(d["int"].int == 7)
        #expect(d["float"].float == Float(2.2))
        #expect(d["double"].double == 2.2)
        #expect(abs(try #require(d["date"].date).timeIntervalSince(date)) < 0.001)
    }

    // covers: FragmentTest.testDictionaryFragmentsetData, FragmentTest.testDictionaryFragmentSetSwiftDict
    @Test func settingDictionariesThroughFragments() throws {
        let doc = MutableDocument(id: "doc1")
        doc["object"].value = MutableDictionaryObject(data: Self.person)
        doc["swift"].value = Self.person
        let d = try roundTrip(doc)
        expectPerson(d["object"])
        expectPerson(d["swift"])
    }

    // covers: FragmentTest.testDictionaryFragmentSetArray, FragmentTest.testDictionaryFragmentSetSwiftArray
    @Test func settingArraysThroughFragments() throws {
        let doc = MutableDocument(id: "doc1")
        doc["array"].value = MutableArrayObject(data: [0, 1, 2])
        doc["dict"].value = [String: Any]()
        doc["dict"]["array"].value = [0, 1, 2]
        let d = try roundTrip(doc)
        for fragment in [d["array"], d["dict"]["array"]] {
            #expect((0..<3).map { fragment[$0].int } == [0, 1, 2])
            #expect(fragment[3].value == nil && !fragment[3].exists && fragment[3].int == 0)
        }
    }

    // covers: FragmentTest.testNonDictionaryFragmentsetValue
    @Test func aFragmentOfAReadDocumentsMutableCopyReplacesAValue() throws {
        let d = try roundTrip(MutableDocument(id: "doc1", data: ["string1": "value1", "string2": "value2"]))
        let copy = d.toMutable()
        copy["string1"].value = 10
        #expect(copy["string1"].value as? Int == 10)
        #expect(copy["string2"].value as? String == "value2")
        #expect(d["string1"].string == "value1")
    }

    // covers: FragmentTest.testArrayFragmentsetData, FragmentTest.testArrayFragmentSetSwiftDictionary
    @Test func addingDictionariesToAFragmentsArray() throws {
        let doc = MutableDocument(id: "doc1")
        doc["objects"].value = [Any]()
        try #require(doc["objects"].array).addValue(MutableDictionaryObject(data: Self.person))
        doc["swift"].value = [Any]()
        try #require(doc["swift"].array).addValue(Self.person)
        let d = try roundTrip(doc)
        for key in ["objects", "swift"] {
            #expect(d[key][0].exists && !d[key][1].exists)
            expectPerson(d[key][0])
        }
    }

    // covers: FragmentTest.testArrayFragmentSetArrayObject, FragmentTest.testArrayFragmentSetArray
    @Test func addingArraysToAFragmentsArray() throws {
        let doc = MutableDocument(id: "doc1")
        doc["objects"].value = [Any]()
        try #require(doc["objects"].array).addValue(MutableArrayObject(data: ["Jason", 5.5, true]))
        doc["swift"].value = [Any]()
        try #require(doc["swift"].array).addValue(["Jason", 5.5, true] as [Any])
        let d = try roundTrip(doc)
        for key in ["objects", "swift"] {
            #expect(d[key][0][0].string == "Jason")
            #expect(d[key][0][1].float == 5.5)
            #expect(d[key][0][2].boolean)
        }
    }

    // covers: FragmentTest.testNonExistingArrayFragmentsetValue, FragmentTest.testOutOfRangeArrayFragmentsetValue
    @Test func settingWhereNothingIsOrOutOfRangeIsIgnored() throws {
        let doc = MutableDocument(id: "doc1")
        doc["array"][0][0].value = 1
        doc["array"][0][1].value = false
        doc["name"]["first"].value = "x"
        #expect(doc.toDictionary().isEmpty)
        doc["list"].value = [Any]()
        try #require(doc["list"].array).addValue(["Jason", 5.5, true] as [Any])
        doc["list"][0][3].value = 1
        doc["list"][-1].value = 1
        let d = try roundTrip(doc)
        #expect(d["array"][0][0].value == nil)
        #expect(!d["list"][0][3].exists)
        #expect(d["list"][0].array?.count == 3)
        #expect(Set(d.keys) == ["list"])
    }
}
