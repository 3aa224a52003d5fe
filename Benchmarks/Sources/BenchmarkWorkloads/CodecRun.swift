import BenchmarkCatalog
import Foundation
@_spi(Codec) import Quire

/// Parsing or writing the same documents with Quire's `JSONReader`/`JSONWriter` or with
/// Foundation's `JSONSerialization`. Inputs are prepared in each codec's own form beforehand
/// (bytes and parsed values), so only the conversion is measured. Both write with sorted keys,
/// the form Quire stores.
final class CodecRun: WorkloadRun {
    private enum Input {
        case quireBytes([[UInt8]])
        case foundationData([Data])
        case quireValues([JSONCodec.Value])
        case foundationObjects([Any])
    }

    private let input: Input

    init(engine: Engine, parse: Bool, documents: [SampleDocument]) throws {
        switch (engine, parse) {
        case (.quire, true):
            input = .quireBytes(documents.map { Array($0.json.utf8) })
        case (.foundation, true):
            input = .foundationData(documents.map { Data($0.json.utf8) })
        case (.quire, false):
            input = .quireValues(try documents.map { try JSONCodec.parse($0.json) })
        case (.foundation, false):
            input = .foundationObjects(try documents.map { try JSONSerialization.jsonObject(with: Data($0.json.utf8)) })
        default:
            throw WorkloadFailure("\(engine.rawValue) is not a JSON codec")
        }
    }

    func measured() throws -> Int {
        var total = 0
        switch input {
        case .quireBytes(let documents):
            for bytes in documents {
                total &+= try JSONCodec.parse(bytes).count
            }
        case .foundationData(let documents):
            for data in documents {
                if let members = try JSONSerialization.jsonObject(with: data) as? [String: Any] {
                    total &+= members.count
                }
            }
        case .quireValues(let documents):
            for value in documents { total &+= try JSONCodec.bytes(value).count }
        case .foundationObjects(let documents):
            for object in documents {
                total &+= try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).count
            }
        }
        return total
    }

    func tearDown() {}
}
