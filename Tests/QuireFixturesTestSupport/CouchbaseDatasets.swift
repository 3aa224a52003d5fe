import Foundation
import QuireFixtures

/// Datasets in Couchbase's own layout (couchbase-lite-tests, `dataset/server/dbs/js/`).
package enum CouchbaseDatasets {
    /// A small blob as the travel dataset's `Attachments/` holds it: named by the base64 of its
    /// SHA-1 with `/` written `_` and `+` kept, as in `EgtdwwdbRd9oLIVJWyJeuBPpx+w=.blob`.
    static func blob(_ bytes: Data, in folder: URL) throws -> String {
        let digest = DatasetBlobName.digest(of: bytes)
        let name = digest.dropFirst(5).replacingOccurrences(of: "/", with: "_") + ".blob"
        let attachments = folder.appendingPathComponent("Attachments")
        try FileManager.default.createDirectory(at: attachments, withIntermediateDirectories: true)
        try bytes.write(to: attachments.appendingPathComponent(name))
        return digest
    }

    /// `names`, `todo` and `travel` laid out as Couchbase writes them: `index.json` entries
    /// `_default`, `lists`, `travel.hotels`, each file named exactly `<entry>.jsonl`.
    package static func write(in scratch: ScratchFolder) throws -> (names: URL, todo: URL, travel: URL) {
        _ = try scratch.write(
            "{\n    \"name\": \"names\",\n    \"collections\": [\n        \"_default\"\n    ]\n}\n",
            to: "names/index.json")
        _ = try scratch.write(
            #"{"_id":"name_1","name":{"first":"Lue","last":"Laserna"},"gender":"female"}"# + "\n"
                + #"{"_id":"name_2","name":{"first":"Jasper","last":"Grebel"},"gender":"male"}"# + "\n",
            to: "names/_default.jsonl")

        _ = try scratch.write(#"{"name":"todo","collections":["_default","lists","tasks"]}"#, to: "todo/index.json")
        _ = try scratch.write(#"{"_id":"user_1","type":"user"}"# + "\n", to: "todo/_default.jsonl")
        _ = try scratch.write(#"{"_id":"list_1","name":"Groceries"}"# + "\n", to: "todo/lists.jsonl")
        _ = try scratch.write(
            #"{"_id":"task_1","list":"list_1","task":"milk"}"# + "\n"
                + #"{"_id":"task_2","list":"list_1","task":"eggs"}"#,
            to: "todo/tasks.jsonl")

        _ = try scratch.write(
            #"{"name":"travel","collections":["travel.airlines","travel.hotels"]}"#, to: "travel/index.json")
        let digest = try blob(Data("\u{89}PNG small picture".utf8), in: scratch.file("travel"))
        let length = Data("\u{89}PNG small picture".utf8).count
        _ = try scratch.write(
            #"{"_id":"airline_10","name":"40-Mile Air","channels":["United States"]}"# + "\n",
            to: "travel/travel.airlines.jsonl")
        _ = try scratch.write(
            #"{"_id":"hotel_1","name":"The Padre Hotel","image":{"length":"# + "\(length)"
                + #","digest":""# + digest + #"","content_type":"image/png","@type":"blob"}}"# + "\n",
            to: "travel/travel.hotels.jsonl")
        return (scratch.file("names"), scratch.file("todo"), scratch.file("travel"))
    }
}
