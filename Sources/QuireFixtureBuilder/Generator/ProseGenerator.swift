import QuireFixtures

/// English-like sentences from ``GeneratorWords``, so full-text search over generated data
/// finds real words (accented ones included).
struct ProseGenerator {
    private static let templates: [[String]] = [
        ["The ", "room", " was ", "adverb", " ", "adjective", "."],
        ["We ", "pastVerb", " the ", "food", " and the ", "adjective", " ", "drink", "."],
        ["Breakfast had ", "food", ", ", "food", " and a ", "adjective", " ", "drink", "."],
        ["The staff were ", "adjective", " and ", "adverb", " ", "adjective", "."],
        ["Our ", "room", " overlooked the ", "view", ", which looked ", "adjective", " at ", "time", "."],
        ["I stayed here with ", "companion", " and we ", "pastVerb", " the ", "adjective", " ", "room", "."],
        ["The café downstairs served ", "food", " that was ", "adverb", " ", "adjective", "."],
        ["Would I come back? The ", "room", " was ", "adjective", ", so maybe."],
        ["Everyone ", "pastVerb", " the ", "view", " at ", "time", "."],
        ["Do not miss the ", "food", "; it was ", "adjective", "!"],
    ]

    /// One sentence.
    static func sentence(_ random: inout SeededGenerator) -> String {
        var text = ""
        for part in random.pick(templates) {
            switch part {
            case "room": text += random.pick(GeneratorWords.roomNouns)
            case "adverb": text += random.pick(GeneratorWords.adverbs)
            case "adjective": text += random.pick(GeneratorWords.adjectives)
            case "pastVerb": text += random.pick(GeneratorWords.pastVerbs)
            case "food": text += random.pick(GeneratorWords.foods)
            case "drink": text += random.pick(GeneratorWords.drinks)
            case "view": text += random.pick(GeneratorWords.views)
            case "time": text += random.pick(GeneratorWords.timesOfDay)
            case "companion": text += random.pick(GeneratorWords.companions)
            default: text += part
            }
        }
        return text
    }

    /// `range` sentences joined by spaces.
    static func paragraph(_ random: inout SeededGenerator, sentences range: ClosedRange<Int>) -> String {
        let count = random.int(in: range)
        return (0..<count).map { _ in sentence(&random) }.joined(separator: " ")
    }
}
