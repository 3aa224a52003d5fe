import Foundation
import QuireTestSupport
import Testing

/// `quire --version` names the package traits the build was made with, so a report or a bug
/// says whether full-text indexes had Snowball's stemmers and the listener HTTPS.
@Suite(.offCooperativePool) struct VersionCommandTests {
    @Test func theVersionNamesEachTraitOnOrOff() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
        let line = try quire.succeed(["--version"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #if Snowball
            #expect(line.contains("Snowball on"))
        #else
            #expect(line.contains("Snowball off"))
        #endif
        #if TLS
            #expect(line.contains("TLS on"))
        #else
            #expect(line.contains("TLS off"))
        #endif
        #expect(line.hasPrefix("0.") || line.hasPrefix("1."))
    }
}
