import Testing

@testable import QuireConformance

@Suite struct VectorTableTests {
    private func cases(_ vectors: String, seed: UInt64 = 0) -> [ConformanceCase] {
        ConformanceSuite.parse(
            """
            about: x
            cases:
              - name: c
                vectors: \(vectors)
                steps: [{scopes: }]
            """, path: "v.yaml", seed: seed
        ).cases
    }

    @Test func columnFormExpandsEveryValueWithStableNames() {
        let names = cases(#"{name: ["_", "%", "_a", "", {repeat: "x", count: 252}]}"#).map(\.name)
        #expect(names == ["c [name=_]", "c [name=%]", "c [name=_a]", "c [name=\"\"]", "c [name=x×252]"])
    }

    @Test func severalColumnsMakeEveryCombinationFirstSlowest() {
        let names = cases("{a: [1, 2], b: [x, y]}").map(\.name)
        #expect(names == ["c [a=1, b=x]", "c [a=1, b=y]", "c [a=2, b=x]", "c [a=2, b=y]"])
    }

    @Test func tableFormMakesOneCasePerRow() {
        let expanded = cases("[{n: 1, s: a}, {n: 2, s: {repeat: ab, count: 2}}]")
        #expect(expanded.map(\.name) == ["c [n=1, s=a]", "c [n=2, s=\"ab\"×2]"])
        #expect(expanded[1].bindings.map(\.name) == ["n", "s"])
        #expect(expanded[1].bindings.map(\.value) == [2, "abab"])
    }

    @Test func tableRowsMustNameTheSameVariables() {
        let expanded = cases("[{n: 1}, {m: 2}]")
        #expect(
            expanded[0].specErrors.first?.message
                == "every vector row must name the same variables as the first; this one has missing n and extra m")
    }

    @Test func characterSetsExpandRangesAndExceptions() throws {
        #expect(try VectorGenerator.expand("a-c_") == ["a", "b", "c", "_"])
        #expect(try VectorGenerator.expand("-a\\-b-") == ["-", "a", "b"])
        let expanded = cases(#"{ch: [{characters: " -/", except: "!-#"}]}"#)
        #expect(
            expanded.map(\.name) == [
                "c [ch=\" \"]", "c [ch=$]", "c [ch=%]", "c [ch=&]", "c [ch=']", "c [ch=(]",
                "c [ch=)]", "c [ch=*]", "c [ch=+]", "c [ch=\",\"]", "c [ch=-]", "c [ch=.]", "c [ch=/]",
            ])
    }

    @Test func multiValuedGeneratorsBelongToTheColumnForm() {
        let expanded = cases("[{n: {range: [1, 3]}}]")
        #expect(
            expanded[0].specErrors.first?.message
                == "this generator makes several values, which only the column form of vectors can use")
        #expect(cases("{n: [{range: [1, 3]}]}").map(\.name) == ["c [n=1]", "c [n=2]", "c [n=3]"])
    }

    @Test func randomValuesFollowTheSeedButNamesDoNot() {
        let first = cases("{s: [{random: alnum, length: 12}, {random: hex, length: 4}]}", seed: 1)
        let again = cases("{s: [{random: alnum, length: 12}, {random: hex, length: 4}]}", seed: 1)
        let other = cases("{s: [{random: alnum, length: 12}, {random: hex, length: 4}]}", seed: 2)
        #expect(first.map(\.name) == ["c [s=random(alnum,12)]", "c [s=random(hex,4)]"])
        #expect(first.map(\.name) == other.map(\.name))
        #expect(first.map { $0.bindings[0].value } == again.map { $0.bindings[0].value })
        #expect(first.map { $0.bindings[0].value } != other.map { $0.bindings[0].value })
        #expect(first[0].bindings[0].value.stringValue?.count == 12)
    }

    @Test func collidingLabelsGetTheRowNumber() {
        let long = String(repeating: "ab", count: 30)
        let names = cases("{s: [\(long)1, \(long)2]}").map(\.name)
        #expect(names == ["c [s=\(String(long.prefix(30)))…(61)] #1", "c [s=\(String(long.prefix(30)))…(61)] #2"])
        #expect(Set(names).count == 2)
    }

    @Test func labelsQuoteWhatWouldBeAmbiguous() {
        #expect(VectorLabel.render("a,b") == "\"a,b\"")
        #expect(VectorLabel.render("\t") == "\"\\t\"")
        #expect(VectorLabel.render(.object(["a": 1])) == "{\"a\":1}")
        #expect(VectorLabel.render(.null) == "null")
    }

    @Test func literalGeneratorWritesAMappingValue() {
        let expanded = cases("{v: [{literal: {a: 1}}]}")
        #expect(expanded[0].bindings[0].value == ["a": 1])
    }
}
