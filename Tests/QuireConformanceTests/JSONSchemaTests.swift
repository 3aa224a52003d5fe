import Foundation
import Testing

@testable import QuireConformance

@Suite struct JSONSchemaTests {
    private func violations(_ schema: String, _ yaml: String) throws -> [String] {
        let validator = try JSONSchema(json: schema)
        let node = try #require(try SpecNode.parse(yaml: yaml, file: "t.yaml"))
        return validator.validate(node).map { "\($0.location.line):\($0.location.column) \($0.message)" }
    }

    @Test func checkedInSchemaIsTheBuiltInOne() throws {
        let url = TestResources.packageRoot.appendingPathComponent("Specs/schema.json")
        let onDisk = try String(contentsOf: url, encoding: .utf8)
        #expect(
            onDisk == SpecSchema.json + "\n",
            "regenerate with: swift run quire conform --print-schema > Specs/schema.json")
    }

    @Test func schemaFileAndRunnerAgreeOnEveryFixture() throws {
        let url = TestResources.packageRoot.appendingPathComponent("Specs/schema.json")
        let fromFile = try JSONSchema(json: String(contentsOf: url, encoding: .utf8))
        let paths = ConformanceSuite.discover(paths: [TestResources.root.path]).found
        #expect(paths.count >= 9)
        for path in paths where !path.hasSuffix("syntax-error.yaml") {
            let node = try #require(try SpecNode.parse(yaml: String(contentsOfFile: path, encoding: .utf8), file: path))
            let editorView = fromFile.validate(node).map(\.specError)
            let runnerView = ConformanceSuite.load(paths: [path]).files[0].errors
            #expect(editorView == runnerView, "\(path)")
            #expect(editorView.isEmpty == !path.contains("/malformed/"), "\(path)")
        }
    }

    @Test func everyStepKeywordIsInTheSchemaAndNoOther() throws {
        let schema = try JSONText.parse(SpecSchema.json)
        let keys = Set(schema.value(at: ["$defs", "step", "properties"])?.objectValue?.keys.map { $0 } ?? [])
        #expect(keys.subtracting(["expect", "as"]) == StepDecoder.engineKeywords.union(StepDecoder.runnerKeywords))
        let choices = schema.value(at: ["$defs", "step", "oneOf"])?.arrayValue?.count
        #expect(choices == keys.count - 2)
    }

    @Test func unsupportedKeywordsAndBrokenReferencesAreRejected() {
        #expect(throws: SchemaDefinitionError.self) { try JSONSchema(json: ##"{"if": {"type": "string"}}"##) }
        #expect(throws: SchemaDefinitionError.self) { try JSONSchema(json: ##"{"$ref": "#/$defs/missing"}"##) }
        #expect(throws: SchemaDefinitionError.self) { try JSONSchema(json: ##"{"pattern": "("}"##) }
    }

    @Test func objectKeywords() throws {
        let schema =
            ##"{"title": "field", "type": "object", "properties": {"name": {"type": "string"}, "count": {"type": "integer", "minimum": 1}}, "required": ["name"], "additionalProperties": false, "dependentRequired": {"count": ["name"]}}"##
        #expect(try violations(schema, "nmae: x") == ["1:1 unknown field 'nmae'; did you mean 'name'?"])
        #expect(
            try violations(schema, "count: 0") == [
                "1:1 'count' needs 'name' next to it", "1:1 missing required field 'name'",
                "1:8 expected a number of at least 1, found 0",
            ])
        #expect(try violations(schema, "name: 3") == ["1:7 expected a string, found integer 3"])
    }

    @Test func alternativesExplainThemselves() throws {
        let schema =
            ##"{"$defs": {"v": {"type": "string", "pattern": "^\\$"}}, "type": "object", "properties": {"n": {"description": "a number or a $name", "anyOf": [{"type": "number"}, {"$ref": "#/$defs/v"}]}, "m": {"anyOf": [{"type": "integer"}, {"type": "boolean"}]}}}"##
        #expect(try violations(schema, "n: $x") == [])
        #expect(try violations(schema, "n: x") == ["1:4 expected a number or a $name, found string \"x\""])
        #expect(try violations(schema, "m: x") == ["1:4 expected an integer or a boolean, found string \"x\""])
    }

    @Test func arraysEnumsAndPropertyNames() throws {
        let schema =
            ##"{"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "additionalProperties": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"enum": ["red", "green"]}}}"##
        #expect(try violations(schema, "a: [red]") == [])
        #expect(try violations(schema, "A1: [red]") == ["1:1 expected text matching \"^[a-z]+$\", found \"A1\""])
        #expect(
            try violations(schema, "a: [gren]") == [
                "1:5 string \"gren\" is not one of: red, green; did you mean 'green'?"
            ])
        #expect(try violations(schema, "a: []") == ["1:4 expected at least 1 element, found 0"])
    }
}
