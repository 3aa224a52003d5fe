import Testing

@testable import QuireConformance

@Suite struct EngineRegistryTests {
    @Test func registersFindsAndExplainsWhatIsMissing() throws {
        let name = "memory-registry-test"
        EngineRegistry.register(name) { MemoryEngine() }
        defer { EngineRegistry.unregister(name) }
        #expect(EngineRegistry.names.contains(name))
        #expect(try EngineRegistry.makeEngine(named: name).name == "memory")
        do {
            _ = try EngineRegistry.makeEngine(named: "memory-registry-tset")
            Issue.record("an unknown engine was found")
        } catch let error as RegistryError {
            #expect(error.description.contains("no conformance engine named 'memory-registry-tset'"))
            #expect(error.description.hasSuffix("did you mean '\(name)'?"))
        }
    }

    @Test func noDefaultIsAClearError() {
        let error = RegistryError(requested: nil, registered: [])
        #expect(error.description.hasPrefix("no conformance engine is registered as the default (none is registered)"))
    }
}
