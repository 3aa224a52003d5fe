import Foundation
import QuireTestSupport
import Testing

@testable import Quire

/// Bodies as the store keeps them (`quire_body.h`): canonical JSON with its identifier keys
/// bare, made JSON again by `quire_body` and read as they are by the path scanner.
@Suite(.offCooperativePool) struct StoredBodyTests {
    /// Compact JSON and its stored form: only keys that are identifiers lose their quotes;
    /// strings that look like keys, keys with escapes, digits first, spaces, `$`, `@` or
    /// non-ASCII letters, and literals or numbers with letters in them stay as they are.
    static let forms: [(json: String, stored: String)] = [
        (#"{}"#, #"{}"#),
        (#"{"a":1}"#, #"{a:1}"#),
        (
            #"{"_id":"x","a_1":[true,false,null],"B":{"c":-1.5e+3}}"#,
            #"{_id:"x",a_1:[true,false,null],B:{c:-1.5e+3}}"#
        ),
        (#"{"s":"\"k\":1","t":"a\\","u":"{\"v\":2}"}"#, #"{s:"\"k\":1",t:"a\\",u:"{\"v\":2}"}"#),
        (
            #"{"1x":1,"a b":2,"a$":3,"@type":"blob","é":4,"":5,"k\"":6,"k\u0041":7}"#,
            #"{"1x":1,"a b":2,"a$":3,"@type":"blob","é":4,"":5,"k\"":6,"k\u0041":7}"#
        ),
        (#"{"true":true,"null":null,"e":1e5,"E":[1E-5,-0.5]}"#, #"{true:true,null:null,e:1e5,E:[1E-5,-0.5]}"#),
        (#"[{"a":{"b":[{"c":"d:"}]}},"e:",{"f":[]}]"#, #"[{a:{b:[{c:"d:"}]}},"e:",{f:[]}]"#),
        (#"{"a" : 1}"#, #"{"a" : 1}"#),
        (#"{"unterminated":"x"#, #"{unterminated:"x"#),
    ]

    @Test func identifierKeysAreStoredBareAndReadBackAsTheyWere() throws {
        let f = try QueryFixture()
        try f.database.read { connection in
            for (json, stored) in Self.forms {
                let answers = try connection.query(
                    "SELECT quire_body_pack(?1), quire_body(quire_body_pack(?1)), quire_body(?1)", [.text(json)]
                ) { row in [row.text(at: 0), row.text(at: 1), row.text(at: 2)] }
                #expect(answers == [[stored, json, json]], "\(json)")
            }
            let others = try connection.query(
                "SELECT quire_body(NULL) IS NULL, quire_body(7), quire_body_pack(x'7b7d')"
            ) {
                row in [row.int64(at: 0), row.int64(at: 1), row.isNull(at: 2) ? 0 : 1]
            }
            #expect(others == [[1, 7, 1]])
        }
    }

    /// A saved document's row holds the stored form, and everything that reads it (the
    /// document, a query's `*` and a property, a full-text index and an array index filled by
    /// their triggers) sees the JSON.
    @Test func aSavedDocumentIsStoredBareAndReadAsJSON() throws {
        let f = try QueryFixture()
        try f.collection.createIndex(withName: "text", config: FullTextIndexConfiguration(["about.note"]))
        try f.collection.createIndex(
            withName: "byTag", config: ArrayIndexConfiguration(path: "tags", expressions: ["name"]))
        let json = #"{"about":{"note":"a \"quoted\": word"},"n":1.5,"tags":[{"name":"red"},{"name":"blue"}]}"#
        try f.save(["d": json])
        let stored = try f.database.read {
            try $0.scalarText("SELECT body FROM \(f.collection.table) WHERE key = 'd'")
        }
        #expect(stored == #"{about:{note:"a \"quoted\": word"},n:1.5,tags:[{name:"red"},{name:"blue"}]}"#)
        #expect(try f.collection.document(id: "d")?.toJSON() == json)
        #expect(try f.database.createQuery("SELECT * FROM store.items").rows() == [#"{"items":\#(json)}"#])
        #expect(
            try f.database.createQuery("SELECT about, tags[1].name AS t FROM store.items").rows()
                == [#"{"about":{"note":"a \"quoted\": word"},"t":"blue"}"#])
        #expect(
            try f.database.createQuery("SELECT meta().id FROM store.items WHERE MATCH(text, 'quoted')").rows()
                == [#"{"id":"d"}"#])
        #expect(
            try f.database.createQuery(
                "SELECT t.name FROM store.items AS i UNNEST i.tags AS t WHERE t.name = 'blue'"
            ).rows() == [#"{"name":"blue"}"#])
        #expect(
            try f.database.createQuery(
                "SELECT meta().id FROM store.items WHERE ANY t IN tags SATISFIES t.name = 'red' END"
            ).rows() == [#"{"id":"d"}"#])
        // Read by path from the stored form (``StoredJSON``), bare and quoted keys side by side.
        try f.save(["m": #"{"1st":1,"a b":{"c":"x"},"n":{"m":[{"k":true}]},"z":"last"}"#])
        let mixed = try #require(try f.collection.document(id: "m"))
        #expect(mixed.int(forKey: "1st") == 1)
        #expect(mixed.dictionary(forKey: "a b")?.string(forKey: "c") == "x")
        #expect(mixed.dictionary(forKey: "n")?.array(forKey: "m")?.dictionary(at: 0)?.boolean(forKey: "k") == true)
        #expect(mixed.string(forKey: "z") == "last")
        #expect(mixed.value(forKey: "q") == nil)
        #expect(mixed.keys == ["1st", "a b", "n", "z"])
    }

    /// Rows written before bodies were stored bare hold plain JSON, which reads the same.
    @Test func aBodyStoredAsJSONReadsTheSame() throws {
        let f = try QueryFixture()
        try f.save(["d": #"{"name":"Ada","tags":["x"]}"#])
        try f.database.write {
            try $0.execute(
                #"UPDATE \#(f.collection.table) SET body = '{"name":"Ada","tags":["x"]}' WHERE key = 'd'"#)
        }
        #expect(try f.collection.document(id: "d")?.string(forKey: "name") == "Ada")
        #expect(
            try f.database.createQuery("SELECT name, tags FROM store.items").rows()
                == [#"{"name":"Ada","tags":["x"]}"#])
    }

    /// A file of schema version 6 (bodies as JSON, triggers reading them with SQLite's JSON
    /// functions) is upgraded: its full-text and array indexes are made again, so a body saved
    /// afterwards, in the stored form, is indexed; the old rows read as before.
    @Test func aVersion6FileIsUpgradedSoItsIndexesReadStoredBodies() throws {
        let directory = TemporaryDirectory("quire-stored-body")
        let config = DatabaseConfiguration(directory: directory.path)
        let version6 = SchemaMigrator(
            StoreSchema.migrator.migrations.filter { $0.version < StoreSchema.bareKeyBodiesVersion })
        do {
            let old = try Database(name: "old", config: config, migrator: version6)
            let items = try old.defaultCollection()
            try items.createIndex(withName: "text", config: FullTextIndexConfiguration(["note"]))
            try items.createIndex(
                withName: "byTag", config: ArrayIndexConfiguration(path: "tags", expressions: ["name"]))
            try items.save(
                document: MutableDocument(id: "old", json: #"{"note":"harbor view","tags":[{"name":"red"}]}"#))
            // What version 6 wrote: triggers over `new.body` with SQLite's functions, JSON rows.
            try old.write { connection in
                let triggers = try connection.query("SELECT name, sql FROM sqlite_schema WHERE type = 'trigger'") {
                    ($0.text(at: 0) ?? "", $0.text(at: 1) ?? "")
                }
                #expect(triggers.count == 6)
                for (name, sql) in triggers {
                    let old = sql.replacingOccurrences(of: "quire_extract(new.body", with: "json_extract(new.body")
                        .replacingOccurrences(of: "quire_type(new.body", with: "json_type(new.body")
                        .replacingOccurrences(of: "quire_body(new.body)", with: "new.body")
                    #expect(old != sql || name.hasSuffix("_delete"), "\(name)")
                    try connection.execute("DROP TRIGGER \(name); \(old)")
                }
                try connection.execute("UPDATE \(items.table) SET body = quire_body(body)")
            }
            #expect(try old.read { try $0.scalarInt("PRAGMA user_version") } == 6)
            try old.close()
        }
        let database = try Database(name: "old", config: config)
        #expect(try database.read { try $0.scalarInt("PRAGMA user_version") } == StoreSchema.migrator.latestVersion)
        let items = try database.defaultCollection()
        try items.save(document: MutableDocument(id: "new", json: #"{"note":"harbor light","tags":[{"name":"red"}]}"#))
        #expect(
            try database.read { try $0.scalarText("SELECT body FROM \(items.table) WHERE key = 'new'") }
                == #"{note:"harbor light",tags:[{name:"red"}]}"#)
        #expect(
            try database.createQuery("SELECT meta().id FROM _ WHERE MATCH(text, 'harbor') ORDER BY meta().id").rows()
                == [#"{"id":"new"}"#, #"{"id":"old"}"#])
        #expect(
            try database.createQuery(
                "SELECT meta(i).id FROM _ AS i UNNEST i.tags AS t WHERE t.name = 'red' ORDER BY meta(i).id"
            ).rows() == [#"{"id":"new"}"#, #"{"id":"old"}"#])
        #expect(try items.document(id: "old")?.toJSON() == #"{"note":"harbor view","tags":[{"name":"red"}]}"#)
        try database.close()
    }
}
