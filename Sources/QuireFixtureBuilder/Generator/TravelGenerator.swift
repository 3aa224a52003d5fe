import Foundation
import Quire
import QuireFixtures

/// Generates the `travel` dataset's collections and blobs.
///
/// Each collection draws from its own generator seeded from the dataset seed, so one
/// collection's content does not depend on how many values another one drew.
struct TravelGenerator {
    let count: Int
    let seed: UInt64
    /// The blobs' PNG bytes and digests, made once.
    let blobs: [(bytes: [UInt8], digest: String)]

    init(count: Int, seed: UInt64) {
        self.count = count
        self.seed = seed
        let blobCount = min(4, (count + 1) / 2)
        blobs = (0..<blobCount).map { index in
            let bytes = Self.blob(index, seed: seed)
            return (bytes, DatasetBlobName.digest(of: bytes))
        }
    }

    var airlineCount: Int { max(2, count / 10) }
    var airportCount: Int { max(4, count / 2) }
    var hotelCount: Int { count }
    var landmarkCount: Int { count }
    var routeCount: Int { 2 * count }

    static let collections = [
        "inventory.airline", "inventory.airport", "inventory.hotel", "inventory.landmark", "inventory.route",
    ]

    func random(for collection: String) -> SeededGenerator {
        Self.random(for: collection, seed: seed)
    }

    private static func random(for collection: String, seed: UInt64) -> SeededGenerator {
        var salt: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in collection.utf8 { salt = (salt ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return SeededGenerator(seed: seed ^ salt)
    }

    /// The PNG bytes of blob `index`: a few images, shared by the even-numbered hotels.
    private static func blob(_ index: Int, seed: UInt64) -> [UInt8] {
        var random = random(for: "blob-\(index)", seed: seed)
        let base = (
            UInt8(truncatingIfNeeded: random.next()), UInt8(truncatingIfNeeded: random.next()),
            UInt8(truncatingIfNeeded: random.next())
        )
        let size = 24 + 8 * index
        return TinyPNG.make(width: size, height: size) { x, y in
            (
                base.0 &+ UInt8(truncatingIfNeeded: x * 7), base.1 &+ UInt8(truncatingIfNeeded: y * 5),
                base.2 &+ UInt8(truncatingIfNeeded: (x ^ y) * 3)
            )
        }
    }

    func airline(_ index: Int, random: inout SeededGenerator) -> JSONValue {
        let place = random.pick(GeneratorWords.travelPlaces)
        let name = "\(random.pick(GeneratorWords.airlineWords)) \(random.pick(GeneratorWords.airlineKinds))"
        return .object([
            "_id": .string("airline_\(index + 1)"), "type": .string("airline"), "id": .int(Int64(index + 1)),
            "name": .string(name), "iata": .string(Self.airlineCode(index)),
            "icao": .string(IdentifierFormat.letters(index, width: 3)),
            "callsign": .string(name.uppercased().replacingOccurrences(of: " ", with: "")),
            "country": .string(place.country),
        ])
    }

    func airport(_ index: Int, random: inout SeededGenerator) -> JSONValue {
        let place = random.pick(GeneratorWords.travelPlaces)
        return .object([
            "_id": .string("airport_\(index + 1)"), "type": .string("airport"), "id": .int(Int64(index + 1)),
            "airportname": .string("\(place.city) \(random.pick(["International", "Regional", "Municipal", "City"]))"),
            "city": .string(place.city), "country": .string(place.country), "tz": .string(place.zone),
            "faa": .string(Self.airportCode(index)), "icao": .string("X" + IdentifierFormat.letters(index, width: 3)),
            "geo": geo(near: place, random: &random, altitude: true),
        ])
    }

    func hotel(_ index: Int, random: inout SeededGenerator) -> JSONValue {
        let place = random.pick(GeneratorWords.travelPlaces)
        let name =
            "\(random.pick(GeneratorWords.hotelAdjectives)) \(random.pick(GeneratorWords.hotelNouns)) \(random.pick(GeneratorWords.hotelKinds))"
        let reviewCount = random.int(in: 2...5)
        let reviews = (0..<reviewCount).map { _ in review(&random) }
        let likeCount = random.int(in: 0...4)
        let likes = (0..<likeCount).map { _ in
            JSONValue.string(
                "\(random.pick(GeneratorWords.femaleFirstNames + GeneratorWords.maleFirstNames)) \(random.pick(GeneratorWords.lastNames))"
            )
        }
        let low = random.int(in: 6...30) * 10
        var members: [String: JSONValue] = [
            "_id": .string("hotel_\(index + 1)"), "type": .string("hotel"), "id": .int(Int64(index + 1)),
            "name": .string(name), "title": .string(place.city),
            "address": .string(
                "\(random.int(in: 1...200)) \(random.pick(GeneratorWords.streetNames)) \(random.pick(GeneratorWords.streetSuffixes))"
            ),
            "city": .string(place.city), "country": .string(place.country),
            "description": .string(ProseGenerator.paragraph(&random, sentences: 3...6)),
            "checkin": .string("\(random.int(in: 12...16)):00"), "checkout": .string("\(random.int(in: 10...12)):00"),
            "free_breakfast": .bool(random.chance(1, in: 2)), "free_internet": .bool(random.chance(3, in: 4)),
            "free_parking": .bool(random.chance(1, in: 3)), "pets_ok": .bool(random.chance(1, in: 4)),
            "vacancy": .bool(random.chance(2, in: 3)),
            "price": .string("€\(low)–€\(low + random.int(in: 5...30) * 10)"),
            "public_likes": .array(likes), "reviews": .array(reviews),
            "geo": geo(near: place, random: &random, altitude: false),
        ]
        if index % 2 == 0, !blobs.isEmpty {
            let blob = blobs[index / 2 % blobs.count]
            members["image"] = .object([
                "@type": .string("blob"), "digest": .string(blob.digest), "length": .int(Int64(blob.bytes.count)),
                "content_type": .string("image/png"),
            ])
        }
        return .object(members)
    }

    func landmark(_ index: Int, random: inout SeededGenerator) -> JSONValue {
        let place = random.pick(GeneratorWords.travelPlaces)
        let kind = random.pick(GeneratorWords.landmarkKinds)
        return .object([
            "_id": .string("landmark_\(index + 1)"), "type": .string("landmark"), "id": .int(Int64(index + 1)),
            "name": .string("\(random.pick(GeneratorWords.hotelAdjectives)) \(kind)"), "title": .string(place.city),
            "city": .string(place.city), "country": .string(place.country),
            "activity": .string(random.pick(GeneratorWords.activities)),
            "content": .string(ProseGenerator.paragraph(&random, sentences: 1...3)),
            "hours": .string("\(random.int(in: 7...10)):00–\(random.int(in: 17...23)):00"),
            "geo": geo(near: place, random: &random, altitude: false),
        ])
    }

    func route(_ index: Int, random: inout SeededGenerator) -> JSONValue {
        let airline = random.below(airlineCount)
        let source = random.below(airportCount)
        let destination = (source + 1 + random.below(airportCount - 1)) % airportCount
        let flights = random.int(in: 2...6)
        let schedule = (0..<flights).map { _ in
            JSONValue.object([
                "day": .int(Int64(random.below(7))),
                "flight": .string(Self.airlineCode(airline) + IdentifierFormat.padded(random.int(in: 1...999), 3)),
                "utc": .string(IdentifierFormat.time(hour: random.below(24), minute: random.below(60), second: 0)),
            ])
        }
        let equipmentCount = random.int(in: 1...2)
        let equipment = random.pick(equipmentCount, distinctFrom: GeneratorWords.aircraft).joined(separator: " ")
        return .object([
            "_id": .string("route_\(index + 1)"), "type": .string("route"), "id": .int(Int64(index + 1)),
            "airline": .string(Self.airlineCode(airline)), "airlineid": .string("airline_\(airline + 1)"),
            "sourceairport": .string(Self.airportCode(source)),
            "destinationairport": .string(Self.airportCode(destination)),
            "stops": .int(random.chance(1, in: 8) ? 1 : 0), "equipment": .string(equipment),
            "distance": .double(Double(random.int(in: 150_000...12_000_000)) / 1000), "schedule": .array(schedule),
        ])
    }

    private func review(_ random: inout SeededGenerator) -> JSONValue {
        let ratings = ["Cleanliness", "Location", "Overall", "Rooms", "Service", "Value"]
        var scores: [String: JSONValue] = [:]
        for rating in ratings { scores[rating] = .int(Int64(random.int(in: 1...5))) }
        let author =
            "\(random.pick(GeneratorWords.femaleFirstNames + GeneratorWords.maleFirstNames)) \(random.pick(GeneratorWords.lastNames))"
        let date =
            IdentifierFormat.date(
                year: random.int(in: 2012...2024), month: random.int(in: 1...12), day: random.int(in: 1...28))
            + " " + IdentifierFormat.time(hour: random.below(24), minute: random.below(60), second: random.below(60))
        return .object([
            "author": .string(author), "date": .string(date),
            "content": .string(ProseGenerator.paragraph(&random, sentences: 5...10)), "ratings": .object(scores),
        ])
    }

    private func geo(
        near place: (city: String, country: String, zone: String, latitude: Double, longitude: Double),
        random: inout SeededGenerator, altitude: Bool
    ) -> JSONValue {
        // Offsets in millionths of a degree keep the printed numbers short and exact.
        let latitude = (place.latitude * 1_000_000).rounded() + Double(random.int(in: -50_000...50_000))
        let longitude = (place.longitude * 1_000_000).rounded() + Double(random.int(in: -50_000...50_000))
        var members: [String: JSONValue] = [
            "lat": .double(latitude / 1_000_000), "lon": .double(longitude / 1_000_000),
        ]
        if altitude {
            members["alt"] = .int(Int64(random.int(in: 0...2000)))
        } else {
            members["accuracy"] = .string("ROOFTOP")
        }
        return .object(members)
    }

    static func airlineCode(_ index: Int) -> String { IdentifierFormat.letters(index, width: 2) }
    static func airportCode(_ index: Int) -> String { IdentifierFormat.letters(index, width: 3) }
}
