#if TLS
    import Crypto
    import Foundation
    import Quire
    import SwiftASN1
    import Testing
    import X509

    @testable import QuireListener
    @testable import QuireSync

    extension EndToEnd {
        /// Couchbase Lite's URLEndpointListenerTest on what a replicator trusts of a TLS
        /// listener: the certificate it was presented (`serverCertificate`), only self-signed
        /// certificates, and a pinned certificate anywhere in the presented chain.
        @Suite(.serialized) struct URLEndpointListenerTrustTests {
            private static func listener(_ collection: Collection, identity: TLSIdentity? = nil, tls: Bool = true)
                async throws -> URLEndpointListener
            {
                var config = URLEndpointListenerConfiguration(
                    collections: [collection], networkInterface: "127.0.0.1")
                config.disableTLS = !tls
                config.tlsIdentity = identity
                let listener = URLEndpointListener(config: config)
                try await listener.start()
                return listener
            }

            private static func url(_ listener: URLEndpointListener) throws -> URL {
                let scheme = listener.config.disableTLS ? "http" : "https"
                return try #require(URL(string: "\(scheme)://127.0.0.1:\(listener.port ?? 0)/remote"))
            }

            /// Replicates one new document of `local` with the listener once; the error code, if any.
            private static func run(
                _ local: SyncTestDatabase, _ listener: URLEndpointListener,
                _ configure: (inout ReplicatorConfiguration) -> Void
            ) async throws -> QuireError.Code? {
                try local.save(UUID().uuidString, #"{"n":1}"#)
                let outcome = try await replicate(local.collection, with: try url(listener), configure: configure)
                return outcome.status.error?.code
            }

            /// A continuous replicator with the listener, pinning `pin` (nil: none).
            private static func continuous(_ local: SyncTestDatabase, _ listener: URLEndpointListener, pin: Data?)
                throws -> Replicator
            {
                var config = ReplicatorConfiguration(target: URLEndpoint(url: try url(listener)))
                config.continuous = true
                config.maxAttemptWaitTime = 0.05
                config.pinnedServerCertificate = pin
                config.addCollection(local.collection)
                return Replicator(config: config)
            }

            /// Starts `replicator`, waits until it is idle, and checks the certificate it was
            /// presented while idle and once stopped.
            private static func expectPresented(_ expected: Data?, by replicator: Replicator) async throws {
                let recorder = ReplicationRecorder(replicator)
                #expect(replicator.serverCertificate == nil)
                replicator.start()
                _ = try await recorder.wait { $0.activity == .idle }
                #expect(replicator.serverCertificate == expected)
                replicator.stop()
                let stopped = try await recorder.waitUntilStopped()
                #expect(stopped.error == nil)
                #expect(replicator.serverCertificate == expected)
            }

            // covers: URLEndpointListenerTest.testReplicatorServerCertificate
            @Test func theServerCertificateIsTheListenersWhileIdleAndOnceStopped() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection)
                let certificate = try #require(listener.tlsIdentity?.certificates.first)
                let local = try SyncTestDatabase()
                try local.save("doc-1", #"{"n":1}"#)
                try await Self.expectPresented(certificate, by: try Self.continuous(local, listener, pin: certificate))
                #expect(remote.collection.count == 1)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testReplicatorServerCertificateWithTLSError
            @Test func anUntrustedServerCertificateIsStillKnownAndCanBePinned() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection)
                let certificate = try #require(listener.tlsIdentity?.certificates.first)
                let local = try SyncTestDatabase()
                let refused = try Self.continuous(local, listener, pin: nil)
                #expect(refused.serverCertificate == nil)
                let recorder = ReplicationRecorder(refused)
                refused.start()
                let stopped = try await recorder.waitUntilStopped()
                #expect(stopped.error?.code == .tlsCertUnknownRoot)
                let received = try #require(refused.serverCertificate)
                #expect(received == certificate)
                // The certificate received, pinned, is trusted.
                try await Self.expectPresented(received, by: try Self.continuous(local, listener, pin: received))
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testReplicatorServerCertificateWithTLSDisabled
            @Test func withoutTLSThereIsNoServerCertificate() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, tls: false)
                let local = try SyncTestDatabase()
                try await Self.expectPresented(nil, by: try Self.continuous(local, listener, pin: nil))
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testAcceptOnlySelfSignedServerCertificate
            @Test func acceptingOnlySelfSignedCertificatesTrustsTheListenersOwn() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection)
                #expect(listener.tlsIdentity?.certificates.count == 1)
                let local = try SyncTestDatabase()
                #expect(
                    try await Self.run(local, listener) { $0.acceptOnlySelfSignedServerCertificate = false }
                        == .tlsCertUnknownRoot)
                #expect(remote.collection.count == 0)
                #expect(try await Self.run(local, listener) { $0.acceptOnlySelfSignedServerCertificate = true } == nil)
                #expect(remote.collection.count == 2)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testAcceptSelfSignedWithNonSelfSignedCert
            @Test func acceptingOnlySelfSignedCertificatesRefusesOneIssuedByACA() async throws {
                let made = try URLEndpointListenerTLSTests.chain()
                let identity = try TLSIdentity(certificatePEM: made.pem, privateKeyPEM: made.key)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, identity: identity)
                let local = try SyncTestDatabase()
                #expect(
                    try await Self.run(local, listener) { $0.acceptOnlySelfSignedServerCertificate = true }
                        == .tlsCertUntrusted)
                #expect(remote.collection.count == 0)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testAcceptOnlySelfSignedCertificateWithPinnedCertificate
            @Test func aPinnedCertificateDecidesOverAcceptingSelfSignedOnes() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection)
                let own = try #require(listener.tlsIdentity?.certificates.first)
                let other = try TLSIdentity.selfSigned(commonName: "CBL-Server")
                let local = try SyncTestDatabase()
                let otherPinned = try await Self.run(local, listener) {
                    $0.acceptOnlySelfSignedServerCertificate = true
                    $0.pinnedServerCertificate = other.certificates[0]
                }
                #expect(otherPinned == .tlsCertUnknownRoot)
                #expect(remote.collection.count == 0)
                let ownPinned = try await Self.run(local, listener) {
                    $0.acceptOnlySelfSignedServerCertificate = false
                    $0.pinnedServerCertificate = own
                }
                #expect(ownPinned == nil)
                #expect(remote.collection.count == 2)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testChainedCertServerAndCertPinning
            @Test func pinningTheCAOrTheLeafOfAServedChainIsTrusted() async throws {
                let made = try URLEndpointListenerTLSTests.chain()
                let identity = try TLSIdentity(certificatePEM: made.pem, privateKeyPEM: made.key)
                #expect(identity.certificates.count == 2)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, identity: identity)
                let local = try SyncTestDatabase()
                #expect(
                    try await Self.run(local, listener) { $0.pinnedServerCertificate = identity.certificates[1] } == nil
                )
                #expect(
                    try await Self.run(local, listener) { $0.pinnedServerCertificate = identity.certificates[0] } == nil
                )
                #expect(remote.collection.count == 2)
                await listener.stop()
            }

            @Test func aPinnedCAIsNotTrustedForALeafItDidNotSign() async throws {
                let made = try URLEndpointListenerTLSTests.chain()
                // Another CA's leaf, served with the pinned CA's certificate after it.
                let stranger = try URLEndpointListenerTLSTests.chain()
                let forged = try stranger.leaf.serializeAsPEM().pemString + "\n" + made.root.serializeAsPEM().pemString
                let identity = try TLSIdentity(certificatePEM: forged, privateKeyPEM: stranger.key)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, identity: identity)
                let local = try SyncTestDatabase()
                let root = Data(try made.root.serializeAsPEM().derBytes)
                #expect(
                    try await Self.run(local, listener) { $0.pinnedServerCertificate = root } == .tlsCertUnknownRoot)
                #expect(remote.collection.count == 0)
                await listener.stop()
            }
        }
    }
#endif
