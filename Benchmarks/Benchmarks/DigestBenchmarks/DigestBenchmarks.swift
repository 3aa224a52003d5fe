import Benchmark
import Crypto
import Foundation
import Quire

/// Quire's digests, which swift-crypto computes since the same-run comparison in
/// `Benchmarks/DIGESTS.md` (against the hand-written SHA-1/SHA-256 with the processor's SHA
/// instructions and the portable MD5 that Quire had before; that commit's version of this
/// target measured both sides):
///
/// - `digest-<function>-<size>/swift-crypto`: the digest of 1,000 documents of 1 KB or 6 KB
///   (`1KB`, `6KB`), or of ten 1 MB blobs (`1MB`), per measured iteration, with swift-crypto's
///   `Insecure.SHA1`, `SHA256` and `Insecure.MD5`, which Quire's `package` digest types and
///   QuireSync's `MD5` call.
/// - `batch-save-<size>/swift-crypto`: travel-shaped documents of about 1.2 KB (5,000) or
///   5.5 KB (2,000) saved in one `inBatch`; the database is made outside the measurement.
let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        warmupIterations: 2,
        maxDuration: .seconds(10),
        maxIterations: 25
    )

    let inputs: [(name: String, chunks: [[UInt8]])] = [
        ("1KB", DigestInput.chunks(count: 1_000, size: 1_024)),
        ("6KB", DigestInput.chunks(count: 1_000, size: 6 * 1_024)),
        ("1MB", DigestInput.chunks(count: 10, size: 1_048_576)),
    ]
    for input in inputs {
        let chunks = input.chunks
        Benchmark("digest-sha1-\(input.name)/swift-crypto", configuration: configuration) { benchmark in
            for chunk in chunks { blackHole(Insecure.SHA1.hash(data: chunk)) }
        }
        Benchmark("digest-sha256-\(input.name)/swift-crypto", configuration: configuration) { benchmark in
            for chunk in chunks { blackHole(Crypto.SHA256.hash(data: chunk)) }
        }
        Benchmark("digest-md5-\(input.name)/swift-crypto", configuration: configuration) { benchmark in
            for chunk in chunks { blackHole(Insecure.MD5.hash(data: chunk)) }
        }
    }

    let batches: [(name: String, documents: [(id: String, json: String)])] = [
        ("1200B", TravelDocuments.make(count: 5_000, reviews: 0)),
        ("5500B", TravelDocuments.make(count: 2_000, reviews: 6)),
    ]
    for batch in batches {
        let documents = batch.documents
        Benchmark("batch-save-\(batch.name)/swift-crypto", configuration: configuration) { benchmark in
            for _ in benchmark.scaledIterations {
                let folder = FileManager.default.temporaryDirectory
                    .appendingPathComponent("quire-digest-bench-\(UUID().uuidString)", isDirectory: true)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let database = try Database(name: "bench", config: DatabaseConfiguration(directory: folder.path))
                let collection = try database.defaultCollection()
                benchmark.startMeasurement()
                try database.inBatch {
                    for document in documents {
                        try collection.save(document: MutableDocument(id: document.id, json: document.json))
                    }
                }
                benchmark.stopMeasurement()
                try database.close()
            }
        }
    }
}

/// Pseudo-random bytes from a fixed seed (a linear congruential generator: the digests only
/// need bytes that are not all alike).
enum DigestInput {
    static func chunks(count: Int, size: Int) -> [[UInt8]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            (0..<size).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 33)
            }
        }
    }
}

/// Travel-shaped JSON documents from a fixed seed: a hotel with its address, geo, prices and
/// amenities is about 1.2 KB; with six reviews about 5.5 KB, the two sizes of the storage
/// layout study.
enum TravelDocuments {
    static func make(count: Int, reviews: Int) -> [(id: String, json: String)] {
        var state: UInt64 = 42
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        let words = [
            "harbour", "quiet", "breakfast", "pool", "station", "garden", "view", "friendly", "spacious",
            "central", "old", "town", "clean", "staff", "parking", "terrace", "museum", "beach", "market",
        ]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in words[next(words.count)] }.joined(separator: " ")
        }
        return (0..<count).map { index in
            let id = "hotel_\(index)"
            var json = """
                {"type":"hotel","name":"Hotel \(sentence(2)) \(index)","title":"\(sentence(3))",\
                "address":"\(next(400)) \(sentence(2)) Street","city":"\(sentence(1).capitalized)",\
                "state":"\(sentence(1))","country":"France","phone":"+33 \(next(9)) \(next(100)) \(next(100)) \(next(100))",\
                "email":"desk\(index)@example.org","url":"https://example.org/hotels/\(index)",\
                "geo":{"lat":\(Double(next(90_000)) / 1000),"lon":\(Double(next(180_000)) / 1000),"accuracy":"ROOFTOP"},\
                "price":"\(next(400)) EUR","vacancy":\(next(2) == 0),"free_breakfast":\(next(2) == 0),\
                "free_internet":\(next(2) == 0),"free_parking":\(next(2) == 0),"pets_ok":\(next(2) == 0),\
                "checkin":"\(12 + next(6)):00","checkout":"\(9 + next(3)):00",\
                "directions":"\(sentence(20))","description":"\(sentence(65))",\
                "public_likes":[\((0..<4).map { _ in "\"\(sentence(2))\"" }.joined(separator: ","))]
                """
            if reviews > 0 {
                let list = (0..<reviews).map { _ in
                    """
                    {"author":"\(sentence(2))","date":"2024-0\(1 + next(9))-1\(next(10)) 10:00:00 +0000",\
                    "ratings":{"Cleanliness":\(next(6)),"Location":\(next(6)),"Overall":\(next(6)),"Rooms":\(next(6)),\
                    "Service":\(next(6)),"Value":\(next(6))},"content":"\(sentence(80))"}
                    """
                }
                json += ",\"reviews\":[\(list.joined(separator: ","))]"
            }
            return (id, json + "}")
        }
    }
}
