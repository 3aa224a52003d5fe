import Testing

@testable import QuireSync

@Suite struct QuireSyncTests {
    @Test func replicationIDVersionIsOne() { #expect(QuireSync.replicationIDVersion == 1) }
}
