import Quire
import QuireFixtures

/// Generates the `names` dataset's people.
enum PeopleGenerator {
    private static let washingtonPlaces = GeneratorWords.usPlaces.filter { $0.state == "WA" }
    private static let otherPlaces = GeneratorWords.usPlaces.filter { $0.state != "WA" }

    /// The person with 0-based `index`.
    static func person(_ index: Int, width: Int, random: inout SeededGenerator) -> JSONValue {
        let female = random.chance(1, in: 2)
        let first = random.pick(female ? GeneratorWords.femaleFirstNames : GeneratorWords.maleFirstNames)
        let last = random.pick(GeneratorWords.lastNames)
        // One person in five lives in Washington, so state queries have plenty to find.
        let place = random.chance(1, in: 5) ? random.pick(washingtonPlaces) : random.pick(otherPlaces)
        let street =
            "\(random.int(in: 1...9999)) \(random.pick(GeneratorWords.streetNames)) \(random.pick(GeneratorWords.streetSuffixes))"
        let login = asciiLogin(first + "." + last)
        let emailCount = random.chance(1, in: 3) ? 2 : 1
        let emails = (0..<emailCount).map { number in
            JSONValue.string(
                "\(number == 0 ? login : String(login.split(separator: ".").last ?? "x"))@\(random.pick(GeneratorWords.emailDomains))"
            )
        }
        let phoneCount = random.chance(1, in: 3) ? 2 : 1
        let phones = (0..<phoneCount).map { _ in
            JSONValue.string(
                "\(place.area)-\(IdentifierFormat.padded(random.int(in: 200...999), 3))-\(IdentifierFormat.padded(random.below(10_000), 4))"
            )
        }
        let likeCount = random.int(in: 0...2)
        let likes = random.pick(likeCount, distinctFrom: GeneratorWords.likes).map(JSONValue.string)
        let birthday = IdentifierFormat.date(
            year: random.int(in: 1940...2005), month: random.int(in: 1...12), day: random.int(in: 1...28))
        return .object([
            "_id": .string("person_\(IdentifierFormat.padded(index + 1, width))"),
            "name": .object(["first": .string(first), "last": .string(last)]),
            "gender": .string(female ? "female" : "male"),
            "birthday": .string(birthday),
            "contact": .object([
                "address": .object([
                    "street": .string(street), "city": .string(place.city), "state": .string(place.state),
                    "zip": .string(place.zip + IdentifierFormat.padded(random.below(100), 2)),
                ]),
                "emails": .array(emails),
                "phones": .array(phones),
            ]),
            "likes": .array(likes),
        ])
    }

    /// Lower-case ASCII letters and dots, accents removed by a fixed table (not the
    /// platform's transliteration, which varies with its Unicode data).
    private static func asciiLogin(_ name: String) -> String {
        let folded: [Character: String] = [
            "á": "a", "à": "a", "â": "a", "ã": "a", "ä": "a", "å": "a", "ç": "c", "é": "e", "è": "e", "ê": "e",
            "ë": "e",
            "í": "i", "ï": "i", "ñ": "n", "ó": "o", "ô": "o", "ö": "o", "ø": "o", "ú": "u", "ü": "u",
        ]
        var result = ""
        for character in name.lowercased() {
            if let replacement = folded[character] {
                result += replacement
            } else if character.isASCII, character.isLetter || character == "." {
                result.append(character)
            }
        }
        return result
    }
}
