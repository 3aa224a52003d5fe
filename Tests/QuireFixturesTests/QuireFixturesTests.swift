import Testing
@testable import QuireFixtures

@Suite struct QuireFixturesTests {
    @Test func formatVersionIsOne() { #expect(QuireFixtures.formatVersion == 1) }
}
