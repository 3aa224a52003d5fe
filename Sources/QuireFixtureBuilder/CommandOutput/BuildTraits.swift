/// The package traits this build of Quire was made with, for `quire --version`: whether the
/// listener and replicator speak HTTPS (`TLS`) and whether full-text indexes have Couchbase
/// Lite's Snowball stemmers (`Snowball`).
package enum BuildTraits {
    /// Each trait by name, on or off.
    package static let all: [(name: String, enabled: Bool)] = [("TLS", tls), ("Snowball", snowball)]

    /// The version line: `0.1.0 (traits: TLS on, Snowball on)`.
    package static func versionLine(_ version: String) -> String {
        "\(version) (traits: \(all.map { "\($0.name) \($0.enabled ? "on" : "off")" }.joined(separator: ", ")))"
    }

    private static var tls: Bool {
        #if TLS
            return true
        #else
            return false
        #endif
    }

    private static var snowball: Bool {
        #if Snowball
            return true
        #else
            return false
        #endif
    }
}
