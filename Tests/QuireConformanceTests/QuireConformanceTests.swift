import Testing

@testable import QuireConformance

@Suite struct QuireConformanceTests {
    @Test func formatVersionIsOne() { #expect(QuireConformance.formatVersion == 1) }
}
