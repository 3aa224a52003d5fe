import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// Couchbase Lite's URLEndpointListenerTest on the configuration value: its defaults, and
/// that a listener's configuration and a copy keep their values whatever later becomes of the
/// value they were made from.
@Suite struct URLEndpointListenerConfigurationTests {
    /// The values Couchbase Lite's tests set, then change.
    private static func configured(_ collection: Collection) throws -> URLEndpointListenerConfiguration {
        var config = URLEndpointListenerConfiguration(collections: [collection])
        config.authenticator = ListenerPasswordAuthenticator { $0 == "username" && $1 == "secret" }
        config.enableDeltaSync = true
        config.networkInterface = "awesomeinterface.com"
        config.port = 3121
        config.readOnly = true
        #if TLS
            config.disableTLS = true
            config.tlsIdentity = try TLSIdentity.selfSigned(commonName: "CBL-Server")
        #endif
        return config
    }

    private static func change(_ config: inout URLEndpointListenerConfiguration) {
        config.authenticator = nil
        config.enableDeltaSync = false
        config.networkInterface = "0.0.0.0"
        config.port = 3123
        config.readOnly = false
        #if TLS
            config.disableTLS = false
            config.tlsIdentity = nil
        #endif
    }

    private static func expectConfigured(_ config: URLEndpointListenerConfiguration) {
        #expect(config.authenticator != nil)
        #expect(config.enableDeltaSync)
        #expect(config.networkInterface == "awesomeinterface.com")
        #expect(config.port == 3121)
        #expect(config.readOnly)
        #if TLS
            #expect(config.disableTLS)
            #expect(config.tlsIdentity?.certificates.count == 1)
        #endif
    }

    // covers: URLEndpointListenerTest.testDefaultListenerConfiguration
    @Test func theDefaultsServeEveryInterfaceOnAFreePortWithoutAuthentication() throws {
        let database = try SyncTestDatabase()
        let config = URLEndpointListenerConfiguration(collections: [database.collection])
        #expect(!config.enableDeltaSync)
        #expect(!config.readOnly)
        #expect(config.authenticator == nil)
        #expect(config.networkInterface == nil)
        // Couchbase Lite's defaultPort is 0, a free port; Quire says so with nil.
        #expect(config.port == nil)
        #if TLS
            // Quire serves plain HTTP unless asked for TLS (Couchbase Lite's default is TLS).
            #expect(config.disableTLS)
            #expect(config.tlsIdentity == nil)
        #endif
    }

    // covers: URLEndpointListenerTest.testCopyingListenerConfiguration
    @Test func aCopiedConfigurationKeepsItsValues() throws {
        let database = try SyncTestDatabase()
        var original = try Self.configured(database.collection)
        let copy = URLEndpointListenerConfiguration(config: original)
        Self.change(&original)
        Self.expectConfigured(copy)
        #expect(original.port == 3123)
    }

    // covers: URLEndpointListenerTest.testSetListenerConfigurationProperties
    @Test func aListenersConfigurationKeepsTheValuesItWasMadeWith() throws {
        let database = try SyncTestDatabase()
        var config = try Self.configured(database.collection)
        let listener = URLEndpointListener(config: config)
        Self.change(&config)
        var returned = listener.config
        Self.change(&returned)
        Self.expectConfigured(listener.config)
    }
}
