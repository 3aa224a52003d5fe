import Foundation
import Quire
import QuireFixtureBuilder
import QuireFixtures

/// Travel-sized documents for performance cases: the hotels of `quire fixture generate
/// travel` (a name, an address, a description of a few sentences, two to five reviews, likes,
/// a location), 1 to 6 KB of JSON each.
///
/// A workload saves them as `${hotel}` (hotel `i` mod ``count``), and the `...Travel`
/// baselines store the same hotels, so both sides do the same work. The hotels are generated
/// once per process, from a fixed seed, without their image blob reference (a blob the
/// workload does not store).
enum TravelDocuments {
    /// How many distinct hotels; document `i` is hotel `i` mod this.
    static let count = 2000
    /// The generator's seed: every run stores the same documents.
    static let seed: UInt64 = 21

    /// Hotel `index` mod ``count``, as Quire's JSON value.
    static func hotel(_ index: Int) throws -> JSONValue {
        let hotels = try generated.get().json
        return hotels[index % hotels.count]
    }

    /// Hotel `index` mod ``count``, as a spec value for a step's body.
    static func hotelValue(_ index: Int) throws -> SpecValue {
        let hotels = try generated.get().spec
        return hotels[index % hotels.count]
    }

    private static let generated: Result<(json: [JSONValue], spec: [SpecValue]), QuireError> = {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("quire-travel-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try DatasetGenerator(kind: .travel, count: TravelDocuments.count, seed: TravelDocuments.seed).write(
                to: folder)
            var hotels: [JSONValue] = []
            try DatasetReader(folder: folder).forEachDocument(in: "inventory.hotel") { document in
                var body = document.body
                body["image"] = nil
                hotels.append(.object(body))
            }
            guard !hotels.isEmpty else {
                return .failure(QuireError(.unexpectedError, "the travel generator wrote no hotels"))
            }
            return .success((json: hotels, spec: hotels.map(TravelDocuments.specValue)))
        } catch {
            return .failure(QuireError(.unexpectedError, "generating the travel documents failed: \(error)"))
        }
    }()

    private static func specValue(_ value: JSONValue) -> SpecValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(Int(number))
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let elements): return .array(elements.map(specValue))
        case .object(let members): return .object(members.mapValues(specValue))
        }
    }
}
