import Foundation
import Testing

@testable import Quire

@Suite struct MutableDocumentTests {
    private func roundTrip(_ document: MutableDocument) throws -> Document {
        let directory = TemporaryDirectory()
        let database = try Database(name: "docs", config: DatabaseConfiguration(directory: directory.path))
        let collection = try database.defaultCollection()
        try collection.save(document: document)
        return try #require(try collection.document(id: document.id))
    }

    @Test func generatedIDsAreUUIDs() {
        let first = MutableDocument()
        let second = MutableDocument(data: ["a": 1])
        #expect(UUID(uuidString: first.id) != nil)
        #expect(first.id != second.id)
        #expect(MutableDocument(id: "given").id == "given")
        #expect(first.revisionID == nil)
        #expect(first.sequence == 0)
    }

    @Test func typedGettersReturnDefaultsForMissingKeys() throws {
        let document = try roundTrip(MutableDocument(id: "empty"))
        #expect(document.value(forKey: "x") == nil)
        #expect(document.string(forKey: "x") == nil)
        #expect(document.number(forKey: "x") == nil)
        #expect(document.int(forKey: "x") == 0)
        #expect(document.int64(forKey: "x") == 0)
        #expect(document.float(forKey: "x") == 0)
        #expect(document.double(forKey: "x") == 0)
        #expect(document.boolean(forKey: "x") == false)
        #expect(document.date(forKey: "x") == nil)
        #expect(document.array(forKey: "x") == nil)
        #expect(document.dictionary(forKey: "x") == nil)
        #expect(document.blob(forKey: "x") == nil)
        #expect(!document.contains(key: "x"))
        #expect(document.count == 0)
        #expect(document.keys.isEmpty)
    }

    @Test func nestedDictionariesAndArraysGiveTheSameDefaults() throws {
        let source = MutableDocument(id: "nested")
            .setDictionary(MutableDictionaryObject(data: ["n": 1]), forKey: "dict")
            .setArray(MutableArrayObject(data: [1]), forKey: "list")
        let stored = try roundTrip(source)
        let dictionaries: [(String, DictionaryObject)] = [
            ("stored", try #require(stored.dictionary(forKey: "dict"))),
            ("mutable", try #require(stored.toMutable().dictionary(forKey: "dict"))),
            ("new", MutableDictionaryObject()),
        ]
        for (label, dictionary) in dictionaries {
            #expect(dictionary.value(forKey: "x") == nil, "\(label)")
            #expect(dictionary.string(forKey: "x") == nil, "\(label)")
            #expect(dictionary.number(forKey: "x") == nil, "\(label)")
            #expect(dictionary.int(forKey: "x") == 0, "\(label)")
            #expect(dictionary.int64(forKey: "x") == 0, "\(label)")
            #expect(dictionary.float(forKey: "x") == 0, "\(label)")
            #expect(dictionary.double(forKey: "x") == 0, "\(label)")
            #expect(dictionary.boolean(forKey: "x") == false, "\(label)")
            #expect(dictionary.date(forKey: "x") == nil, "\(label)")
            #expect(dictionary.array(forKey: "x") == nil, "\(label)")
            #expect(dictionary.dictionary(forKey: "x") == nil, "\(label)")
            #expect(dictionary.blob(forKey: "x") == nil, "\(label)")
            #expect(!dictionary.contains(key: "x"), "\(label)")
        }
        let arrays: [(String, ArrayObject)] = [
            ("stored", try #require(stored.array(forKey: "list"))),
            ("mutable", try #require(stored.toMutable().array(forKey: "list"))),
        ]
        for (label, array) in arrays {
            // Index 0 holds 1; index 5 is past the end and gives each type's default.
            #expect(array.int(at: 0) == 1, "\(label)")
            #expect(array.value(at: 5) == nil, "\(label)")
            #expect(array.string(at: 5) == nil, "\(label)")
            #expect(array.number(at: 5) == nil, "\(label)")
            #expect(array.int(at: 5) == 0, "\(label)")
            #expect(array.int64(at: 5) == 0, "\(label)")
            #expect(array.float(at: 5) == 0, "\(label)")
            #expect(array.double(at: 5) == 0, "\(label)")
            #expect(array.boolean(at: 5) == false, "\(label)")
            #expect(array.date(at: 5) == nil, "\(label)")
            #expect(array.array(at: 5) == nil, "\(label)")
            #expect(array.dictionary(at: 5) == nil, "\(label)")
            #expect(array.blob(at: 5) == nil, "\(label)")
            // A value of another type also gives the default, not a conversion.
            #expect(array.string(at: 0) == nil, "\(label)")
            #expect(array.date(at: 0) == nil, "\(label)")
        }
    }

    @Test func everyTypeRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let source = MutableDocument(id: "types")
            .setString("text", forKey: "string")
            .setInt(42, forKey: "int")
            .setInt64(Int64.max, forKey: "max")
            .setInt64(Int64.min, forKey: "min")
            .setDouble(0.1, forKey: "double")
            .setDouble(1.7976931348623157e308, forKey: "big")
            .setDouble(Double.leastNonzeroMagnitude, forKey: "tiny")
            .setFloat(1.5, forKey: "float")
            .setBoolean(true, forKey: "true")
            .setInt(1, forKey: "one")
            .setBoolean(false, forKey: "false")
            .setInt(0, forKey: "zero")
            .setDate(date, forKey: "date")
            .setValue(nil, forKey: "null")
            .setArray(MutableArrayObject(data: [1, "two", 3.5]), forKey: "array")
            .setDictionary(MutableDictionaryObject(data: ["nested": ["deep": true]]), forKey: "dict")
        let document = try roundTrip(source)
        #expect(document.string(forKey: "string") == "text")
        #expect(document.int(forKey: "int") == 42)
        #expect(document.int64(forKey: "max") == Int64.max)
        #expect(document.int64(forKey: "min") == Int64.min)
        #expect(document.double(forKey: "double") == 0.1)
        #expect(document.double(forKey: "big") == 1.7976931348623157e308)
        #expect(document.double(forKey: "tiny") == Double.leastNonzeroMagnitude)
        #expect(document.float(forKey: "float") == 1.5)
        #expect(document.value(forKey: "true") as? Bool == true)
        #expect(document.value(forKey: "one") as? Int == 1)
        #expect(document.value(forKey: "one") as? Bool == nil)
        #expect(document.value(forKey: "true") as? Int == nil)
        #expect(document.value(forKey: "false") as? Bool == false)
        #expect(document.value(forKey: "zero") as? Int == 0)
        #expect(document.boolean(forKey: "one"))
        #expect(document.int(forKey: "true") == 1)
        #expect(document.date(forKey: "date") == date)
        #expect(document.string(forKey: "date") == "2023-11-14T22:13:20.123Z")
        #expect(document.value(forKey: "null") is NSNull)
        #expect(document.contains(key: "null"))
        #expect(document.array(forKey: "array")?.count == 3)
        #expect(document.array(forKey: "array")?.string(at: 1) == "two")
        #expect(document.array(forKey: "array")?.double(at: 2) == 3.5)
        #expect(document.array(forKey: "array")?.int(at: 9) == 0)
        #expect(document.dictionary(forKey: "dict")?.dictionary(forKey: "nested")?.boolean(forKey: "deep") == true)
        #expect(document["dict"]["nested"]["deep"].boolean)
        #expect(document["nope"]["deeper"].string == nil)
        #expect(document.int(forKey: "double") == 0)
        #expect(document.int(forKey: "float") == 1)
        #expect(document.string(forKey: "int") == nil)
    }

    @Test func datesAreReadFromAnyISO8601Text() throws {
        let document = MutableDocument(id: "dates")
            .setString("2024-02-29T12:30:00Z", forKey: "z")
            .setString("2024-02-29T14:30:00+02:00", forKey: "offset")
            .setString("2024-02-29T12:30:00.5Z", forKey: "fraction")
            .setString("2024-02-29", forKey: "day")
            .setString("not a date", forKey: "bad")
        let expected = Date(timeIntervalSince1970: 1_709_209_800)
        #expect(document.date(forKey: "z") == expected)
        #expect(document.date(forKey: "offset") == expected)
        #expect(document.date(forKey: "fraction") == expected.addingTimeInterval(0.5))
        #expect(document.date(forKey: "day") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(document.date(forKey: "bad") == nil)
    }

    @Test func nestedContainersOfAMutableDocumentAreLive() throws {
        let document = try MutableDocument(id: "live", json: #"{"contact":{"address":{"city":"Oslo"}},"tags":["a"]}"#)
        let address = try #require(document.dictionary(forKey: "contact")?.dictionary(forKey: "address"))
        address.setString("Bergen", forKey: "city")
        let tags = try #require(document.array(forKey: "tags"))
        tags.addString("b").insertValue("first", at: 0).removeValue(at: 1)
        #expect(document.toJSON() == #"{"contact":{"address":{"city":"Bergen"}},"tags":["first","b"]}"#)
        let saved = try roundTrip(document)
        #expect(saved["contact"]["address"]["city"].string == "Bergen")
        #expect(saved.array(forKey: "tags")?.toArray() as? [String] == ["first", "b"])
    }

    @Test func everyTypedArraySetterStoresItsType() throws {
        let blob = Blob(contentType: "text/plain", data: Data("hello".utf8))
        let array = MutableArrayObject()
            .addNumber(NSNumber(value: 7)).addFloat(1.5).addBlob(blob)
            .addString("x").addString("y").addString("z").addString("w")
        array.setNumber(NSNumber(value: 8), at: 0).setFloat(2.5, at: 1)
            .setArray(MutableArrayObject(data: [1, 2]), at: 3)
            .setDictionary(MutableDictionaryObject(data: ["k": "v"]), at: 4)
            .setBlob(blob, at: 5)
            .insertString("first", at: 0).insertInt(9, at: 1)
        let saved = try roundTrip(MutableDocument(id: "array-setters").setArray(array, forKey: "list"))
        let list = try #require(saved.array(forKey: "list"))
        #expect(list.count == 9)
        #expect(list.string(at: 0) == "first")
        #expect(list.int(at: 1) == 9)
        #expect(list.int(at: 2) == 8)
        #expect(list.float(at: 3) == 2.5)
        // (The round trip's folder is gone by now, so the blobs are checked by their metadata.)
        #expect(list.blob(at: 4)?.digest == blob.digest)
        #expect(list.blob(at: 4)?.length == 5)
        #expect(list.array(at: 5)?.toArray() as? [Int] == [1, 2])
        #expect(list.dictionary(at: 6)?.string(forKey: "k") == "v")
        #expect(list.blob(at: 7)?.digest == blob.digest)
        #expect(list.string(at: 8) == "w")
    }

    @Test func toMutableCopiesAndKeepsTheRevision() throws {
        let saved = try roundTrip(MutableDocument(id: "copy", data: ["a": 1]))
        let mutable = saved.toMutable()
        mutable.setInt(2, forKey: "a").removeValue(forKey: "missing")
        #expect(mutable.revisionID == saved.revisionID)
        #expect(saved.int(forKey: "a") == 1)
        #expect(mutable.int(forKey: "a") == 2)
    }

    @Test func jsonInitializersRejectBadInput() throws {
        // Couchbase Lite's testSpecialJSONStrings: invalidJSON (17001) from every initializer.
        for json in ["Random:String", #"["item1","item2"]"#, "", " ", "[", "{", #"{"dictionary_without_value"}"#, "[]"]
        {
            let document = #expect(throws: QuireError.self) { try MutableDocument(json: json) }
            #expect(document?.code == .invalidJSON)
            #expect(document?.errorCode == 17001)
            #expect(document?.message.contains("at byte") == true)
            let dictionary = #expect(throws: QuireError.self) { try MutableDictionaryObject(json: json) }
            #expect(dictionary?.code == .invalidJSON)
            let edited = #expect(throws: QuireError.self) { try MutableDocument(id: "j").setJSON(json) }
            #expect(edited?.code == .invalidJSON)
        }
        for json in ["{}", "[", #"{"a":1}"#] {
            let array = #expect(throws: QuireError.self) { try MutableArrayObject(json: json) }
            #expect(array?.code == .invalidJSON)
        }
        let truncated = #expect(throws: QuireError.self) { try MutableDocument(json: #"{"a":"#) }
        #expect(truncated?.message.contains("at byte 5") == true)
        #expect(try MutableDocument(json: "{}").count == 0)
        #expect(try MutableArrayObject(json: "[]").count == 0)
        let document = try? MutableDocument(id: "j", json: #"{"n":12345678901234567,"b":true}"#)
        #expect(document?.int64(forKey: "n") == 12_345_678_901_234_567)
        #expect(document?.value(forKey: "b") as? Bool == true)
    }

    @Test func toDictionaryGivesPlainValues() throws {
        let document = try roundTrip(MutableDocument(id: "plain", data: ["a": ["b": [1, 2]], "s": "x"]))
        let dictionary = document.toDictionary()
        #expect((dictionary["a"] as? [String: Any])?["b"] as? [Int] == [1, 2])
        #expect(dictionary["s"] as? String == "x")
        #expect(document.toJSON() == #"{"a":{"b":[1,2]},"s":"x"}"#)
    }

    @Test func unsupportedValuesAreReportedWithTheirKeyPath() throws {
        struct Opaque {}
        let directory = TemporaryDirectory()
        let database = try Database(name: "bad", config: DatabaseConfiguration(directory: directory.path))
        let document = MutableDocument(id: "bad", data: ["outer": ["inner": Opaque()]])
        let error = #expect(throws: QuireError.self) { try database.defaultCollection().save(document: document) }
        #expect(error?.code == .invalidParameter)
        #expect(error?.message.contains("outer.inner") == true)
    }

    @Test func plainSwiftValuesKeepTheirTypesThroughData() throws {
        // Int, Bool, Double, String, [Any], [String: Any] and typed arrays, as an app builds them.
        let data: [String: Any] = [
            "int": 1, "zero": 0, "flag": true, "off": false, "double": 2.5, "whole": 3.0, "text": "t",
            "list": [1, "two", false] as [Any], "ints": [1, 2], "nested": ["k": ["deep": 7]] as [String: Any],
            "json": JSONValue.string("from JSONValue"), "nothing": NSNull(), "number": NSNumber(value: 1),
        ]
        let document = try roundTrip(MutableDocument(id: "plain-types", data: data))
        #expect(document.value(forKey: "int") as? Int == 1)
        #expect(document.value(forKey: "zero") as? Int == 0)
        #expect(document.value(forKey: "flag") as? Bool == true)
        #expect(document.value(forKey: "off") as? Bool == false)
        #expect(document.double(forKey: "double") == 2.5)
        #expect(document.string(forKey: "text") == "t")
        #expect(document.string(forKey: "json") == "from JSONValue")
        #expect(document.array(forKey: "list")?.count == 3)
        #expect(document.dictionary(forKey: "nested")?.dictionary(forKey: "k")?.int(forKey: "deep") == 7)
        #expect(document.toJSON().contains(#""flag":true"#))
        #expect(document.toJSON().contains(#""list":[1,"two",false]"#))
        #expect(document.toJSON().contains(#""ints":[1,2]"#))
        #expect(document.toJSON().contains(#""nothing":null"#))
        #expect(document.toJSON().contains(#""number":1"#))
    }

    @Test func nonFiniteDoublesAreRefusedWithTheirKeyPath() throws {
        let directory = TemporaryDirectory()
        let database = try Database(name: "nan", config: DatabaseConfiguration(directory: directory.path))
        for value in [Double.nan, .infinity, -.infinity] {
            let document = MutableDocument(id: "nan", data: ["outer": ["value": value] as [String: Any]])
            let error = #expect(throws: QuireError.self) { try database.defaultCollection().save(document: document) }
            #expect(error?.code == .invalidParameter)
            #expect(error?.message.contains("outer.value") == true)
        }
    }

    /// A mutable document's calls are each safe from any thread (run under ThreadSanitizer
    /// in CI): reads that make nested containers live and reads of untouched JSON change the
    /// document, and every thread must see the one live container they made.
    @Test func callsFromManyThreadsAtOnceKeepEveryChange() throws {
        let document = try MutableDocument(id: "shared", json: #"{"nested": {"a": 1}, "list": [1, 2]}"#)
        let nested = Locked([ObjectIdentifier]())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for step in 0..<25 {
                if let live = document.value(forKey: "nested") as? MutableDictionaryObject {
                    nested.withLock { $0.append(ObjectIdentifier(live)) }
                    live.setValue(step, forKey: "t\(thread)")
                }
                (document.value(forKey: "list") as? MutableArrayObject)?.addValue(thread)
                document.setValue(step, forKey: "k\(thread)")
                _ = document.toJSON()
            }
        }
        #expect(Set(nested.withLock { $0 }).count == 1)
        let body = document.toDictionary()
        for thread in 0..<8 { #expect(body["k\(thread)"] as? Int == 24) }
        let inner = try #require(body["nested"] as? [String: Any])
        #expect(inner.count == 9)
        #expect((body["list"] as? [Any])?.count == 2 + 8 * 25)
        let saved = try roundTrip(document)
        #expect(saved.dictionary(forKey: "nested")?.count == 9)
        #expect(saved.revisionID == document.revisionID)
    }

    @Test func documentsAreEqualByCollectionIDAndBody() throws {
        let first = MutableDocument(id: "doc1", data: ["answer": 42])
        let twin = MutableDocument(id: "doc1", data: ["answer": 42])
        #expect(first == twin)
        #expect(first != MutableDocument(id: "doc2", data: ["answer": 42]))
        #expect(first != MutableDocument(id: "doc1", data: ["answer": 50]))
        let saved = try roundTrip(first)
        #expect(saved == first)
        // One belongs to a collection, the other to none yet.
        #expect(saved != twin)
        let copy = saved.toMutable()
        #expect(copy == saved)
        copy.setInt(50, forKey: "answer")
        #expect(copy != saved)
    }

    @Test func documentsAndDictionariesEnumerateTheirKeys() {
        let document = MutableDocument(id: "d", data: ["b": 1, "a": 2])
        #expect(Array(document) == ["a", "b"])
        let dictionary = MutableDictionaryObject(data: ["y": 1, "x": 2])
        #expect(Array(dictionary) == ["x", "y"])
        #expect(document.contains("a") && !document.contains("c"))
    }

    @Test func typedInsertersInsertTheirValues() throws {
        let array = MutableArrayObject(data: ["end"])
        let blob = Blob(contentType: "text/plain", data: Data("b".utf8))
        array.insertInt64(17, at: 0).insertDouble(2.5, at: 1).insertFloat(1.5, at: 2).insertBoolean(true, at: 3)
        array.insertNumber(NSNumber(value: 3), at: 4).insertDate(Date(timeIntervalSince1970: 0), at: 5)
        array.insertBlob(blob, at: 6).insertArray(MutableArrayObject(data: [1]), at: 7)
        array.insertDictionary(MutableDictionaryObject(data: ["k": "v"]), at: 8)
        #expect(array.count == 10)
        #expect(array.int64(at: 0) == 17 && array.double(at: 1) == 2.5 && array.float(at: 2) == 1.5)
        #expect(array.boolean(at: 3) && array.int(at: 4) == 3)
        #expect(array.string(at: 5) == "1970-01-01T00:00:00.000Z")
        #expect(array.blob(at: 6) === blob)
        #expect(array.array(at: 7)?.toArray().count == 1 && array.dictionary(at: 8)?.string(forKey: "k") == "v")
        #expect(array.string(at: 9) == "end")
    }

    @Test func aBlobsJSONIsItsProperties() {
        let blob = Blob(contentType: "text/plain", data: Data("i'm blob".utf8))
        #expect(
            blob.toJSON()
                == #"{"@type":"blob","content_type":"text/plain","digest":"sha1-YHGJqDiuFaOrqcyHy97ZLUfBl8A=","length":8}"#
        )
    }
}
