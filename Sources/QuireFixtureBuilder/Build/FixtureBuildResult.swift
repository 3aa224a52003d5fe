import Foundation
import QuireFixtures

/// What ``FixtureBuilder/build(into:)`` made.
public struct FixtureBuildResult: Sendable, Equatable {
    /// The archive, `<name>.quire.zip`.
    public var archiveURL: URL
    /// Its manifest, as written into it.
    public var manifest: FixtureManifest

    /// Makes a result.
    public init(archiveURL: URL, manifest: FixtureManifest) {
        self.archiveURL = archiveURL
        self.manifest = manifest
    }
}
