import Testing

@testable import QuireConformance

@Suite struct TemplateTests {
    private let variables: [String: SpecValue] = [
        "n": 3, "name": "Ada", "doc": ["_meta": ["id": "d1", "revisionID": "1-a"], "tags": ["x", "y"]],
    ]

    @Test func aWholeReferenceKeepsItsType() throws {
        #expect(try Template.substitute("${n}", with: variables) == 3)
        #expect(try Template.substitute("${doc._meta}", with: variables) == ["id": "d1", "revisionID": "1-a"])
        #expect(try Template.substitute("${doc.tags.1}", with: variables) == "y")
    }

    @Test func referencesInsideTextBecomeText() throws {
        #expect(
            try Template.substitute("${name} has ${n} and ${doc.tags}", with: variables)
                == "Ada has 3 and [\"x\",\"y\"]")
    }

    @Test func keysAndNestedValuesAreSubstituted() throws {
        let value: SpecValue = ["${name}": ["${n}", "id-${doc._meta.id}"]]
        #expect(try Template.substitute(value, with: variables) == ["Ada": [3, "id-d1"]])
    }

    @Test func dollarDollarEscapes() throws {
        #expect(try Template.substitute("$${name} ${name}", with: variables) == "${name} Ada")
        #expect(try Template.substitute("$5 and ${ unterminated", with: variables) == "$5 and ${ unterminated")
    }

    @Test func unresolvedReferencesSaySo() {
        #expect(throws: Template.Unresolved.self) { try Template.substitute("${nme}", with: variables) }
        do {
            _ = try Template.substitute("${doc._meta.nope}", with: variables)
        } catch {
            #expect("\(error)".hasPrefix("'${doc._meta.nope}' does not exist"))
        }
    }

    @Test func referencesAreListed() {
        let found = Template.references(in: ["a": ["${x.y}", "${z} ${w}"], "${k}": 1]).map(\.name).sorted()
        #expect(found == ["k", "w", "x", "z"])
    }
}
