import Foundation
import Quire
import QuireFixtures

/// The private and public UUIDs a fixture build gives its database, derived from what went
/// into it so that two builds of the same inputs write the same bytes, and different inputs
/// never share an identity.
///
/// The rule, version 1 (all hashes SHA-256):
/// 1. *inputs*: hash, for each collection in load order, its full name and a `0x00` byte,
///    then each document line exactly as read followed by `0x0a`; then each blob digest
///    copied, in first-use order, followed by `0x0a`.
/// 2. *seed*: hash `quire-fixture-identity-1`, `0x00`, the recipe file's hash (32 bytes),
///    the build timestamp (`SOURCE_DATE_EPOCH`) in decimal, `0x00`, and *inputs* (32 bytes).
/// 3. Each UUID is the first 16 bytes of hash(*seed* + `private`) or hash(*seed* + `public`),
///    marked as an RFC 9562 version-8 UUID and written in upper case as Foundation writes
///    UUIDs.
///
/// An installed copy gets fresh random UUIDs from `Database.copy` and keeps the fixture's
/// private UUID as its previous one.
public struct FixtureIdentity: Sendable, Equatable {
    /// The database's private UUID.
    public var privateUUID: String
    /// The database's public UUID.
    public var publicUUID: String

    /// Derives the identity from the recipe's hash, the build timestamp and the inputs' hash.
    public init(recipeDigest: [UInt8], timestamp: FixtureTimestamp, inputDigest: [UInt8]) {
        var hasher = SHA256()
        hasher.update(data: Array("quire-fixture-identity-1".utf8) + [0])
        hasher.update(data: recipeDigest)
        hasher.update(data: Array(String(timestamp.secondsSinceEpoch).utf8) + [0])
        hasher.update(data: inputDigest)
        let seed = hasher.finalize()
        privateUUID = Self.uuid(SHA256.hash(data: seed + Array("private".utf8)))
        publicUUID = Self.uuid(SHA256.hash(data: seed + Array("public".utf8)))
    }

    private static func uuid(_ digest: [UInt8]) -> String {
        var bytes = Array(digest.prefix(16))
        bytes[6] = bytes[6] & 0x0f | 0x80
        bytes[8] = bytes[8] & 0x3f | 0x80
        let hex = Array(DigestText.hex(bytes).uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }

    /// Hashes a build's inputs in the order step 1 of the rule gives.
    struct InputHasher {
        private var hasher = SHA256()

        mutating func beginCollection(_ fullName: String) {
            hasher.update(data: Array(fullName.utf8) + [0])
        }

        mutating func addLine(_ line: ArraySlice<UInt8>) {
            line.withUnsafeBytes { hasher.update($0) }
            withUnsafeBytes(of: UInt8(ascii: "\n")) { hasher.update($0) }
        }

        mutating func addBlob(_ digest: String) {
            hasher.update(data: Array(digest.utf8) + [0x0a])
        }

        mutating func finalize() -> [UInt8] { hasher.finalize() }
    }
}
