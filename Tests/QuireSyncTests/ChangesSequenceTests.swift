import Quire
import Testing

@testable import QuireSync

@Suite struct ChangesSequenceTests {
    @Test func localSequencesAreStrings() {
        #expect(ChangesSequence(42).value == "42")
        #expect(ChangesSequence(42).parameter == "42")
        #expect(ChangesSequence(42).localSequence == 42)
        #expect(ChangesSequence.zero.localSequence == 0)
    }

    @Test func sinceParametersAcceptEveryForm() {
        #expect(ChangesSequence(parameter: "7")?.localSequence == 7)
        #expect(ChangesSequence(parameter: "\"7\"")?.localSequence == 7)
        #expect(ChangesSequence(parameter: "7-g1AAAAhjeJzLYWBg")?.localSequence == 7)
        #expect(ChangesSequence(parameter: "7-g1AAAAhjeJzLYWBg")?.parameter == "7-g1AAAAhjeJzLYWBg")
        #expect(ChangesSequence(parameter: "") == nil)
        #expect(ChangesSequence(parameter: "\"\"") == nil)
        #expect(ChangesSequence(parameter: "abc")?.localSequence == nil)
    }

    @Test func peerSequencesAreKeptAsSent() throws {
        #expect(try ChangesSequence(json: 12).value == 12)
        #expect(try ChangesSequence(json: 12).parameter == "12")
        #expect(try ChangesSequence(json: 12).localSequence == 12)
        #expect(try ChangesSequence(json: "3-opaque").parameter == "3-opaque")
        #expect(try ChangesSequence(json: 12) != ChangesSequence(12))
        for bad: JSONValue in [true, .null, -1.5, ["a"]] {
            #expect(throws: QuireError.self) { try ChangesSequence(json: bad) }
        }
    }
}
