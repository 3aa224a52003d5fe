#if TLS
    import Foundation
    import Quire
    import Testing
    import X509

    @testable import QuireListener
    @testable import QuireSync

    extension EndToEnd {
        /// Couchbase Lite's URLEndpointListenerTest on client certificates: a listener with a
        /// certificate authenticator (a callback, or root certificates) and a replicator
        /// presenting its identity with ClientCertificateAuthenticator.
        @Suite(.serialized) struct ListenerCertificateAuthenticatorTests {
            private static func listener(_ collection: Collection, authenticator: any ListenerAuthenticator)
                async throws -> URLEndpointListener
            {
                var config = URLEndpointListenerConfiguration(
                    collections: [collection], networkInterface: "127.0.0.1", authenticator: authenticator)
                config.disableTLS = false
                let listener = URLEndpointListener(config: config)
                try await listener.start()
                return listener
            }

            /// Replicates one new document of `local` with the listener, trusting its
            /// certificate and presenting `identity` (nil: no client certificate); the error
            /// code, if any.
            private static func run(_ local: SyncTestDatabase, _ listener: URLEndpointListener, identity: TLSIdentity?)
                async throws -> QuireError.Code?
            {
                try local.save(UUID().uuidString, #"{"n":1}"#)
                let url = try #require(URL(string: "https://127.0.0.1:\(listener.port ?? 0)/remote"))
                let serverCertificate = try #require(listener.tlsIdentity?.certificates.first)
                let outcome = try await replicate(local.collection, with: url) {
                    $0.pinnedServerCertificate = serverCertificate
                    $0.authenticator = identity.map { ClientCertificateAuthenticator(identity: $0) }
                }
                return outcome.status.error?.code
            }

            /// The common name of a DER certificate.
            private static func commonName(_ der: Data) -> String? {
                guard let certificate = try? Certificate(derEncoded: Array(der)) else { return nil }
                return certificate.subject.flatMap { $0 }.first { $0.type == .RDNAttributeType.commonName }
                    .map { String(describing: $0.value) }
            }

            // covers: URLEndpointListenerTest.testClientCertAuthWithCallback
            @Test func aCallbackAcceptingTheClientsCertificateLetsItReplicate() async throws {
                let seen = Locked([[Data]]())
                let authenticator = ListenerCertificateAuthenticator { chain in
                    seen.withLock { $0.append(chain) }
                    return chain.count == 1 && Self.commonName(chain[0]) == "daniel"
                }
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, authenticator: authenticator)
                #expect(listener.tlsIdentity?.certificates.count == 1)
                let client = try TLSIdentity.selfSigned(commonName: "daniel")
                let local = try SyncTestDatabase()
                #expect(try await Self.run(local, listener, identity: client) == nil)
                #expect(remote.collection.count == 1)
                let chains = seen.withLock { $0 }
                #expect(!chains.isEmpty)
                #expect(chains.allSatisfy { $0 == client.certificates })
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testClientCertAuthWithCallbackError
            @Test func aCallbackRefusingTheClientsCertificateStopsItWithClientCertRejected() async throws {
                let authenticator = ListenerCertificateAuthenticator { chain in
                    #expect(chain.count == 1)
                    return false
                }
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(remote.collection, authenticator: authenticator)
                let local = try SyncTestDatabase()
                let client = try TLSIdentity.selfSigned(commonName: "daniel")
                #expect(try await Self.run(local, listener, identity: client) == .tlsClientCertRejected)
                #expect(remote.collection.count == 0)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testClientCertAuthWithRootCerts
            @Test func aClientCertificateSignedByARootCertificateReplicates() async throws {
                let made = try URLEndpointListenerTLSTests.chain()
                let root = Data(try made.root.serializeAsPEM().derBytes)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(
                    remote.collection, authenticator: try ListenerCertificateAuthenticator(rootCerts: [root]))
                // The leaf alone, and the leaf followed by its CA.
                let leafOnly = try TLSIdentity(
                    certificatePEM: try made.leaf.serializeAsPEM().pemString, privateKeyPEM: made.key)
                let chained = try TLSIdentity(certificatePEM: made.pem, privateKeyPEM: made.key)
                let local = try SyncTestDatabase()
                #expect(try await Self.run(local, listener, identity: leafOnly) == nil)
                #expect(try await Self.run(local, listener, identity: chained) == nil)
                #expect(remote.collection.count == 2)
                await listener.stop()
            }

            // covers: URLEndpointListenerTest.testClientCertAuthWithRootCertsError
            @Test func aClientCertificateNotSignedByARootCertificateIsRejected() async throws {
                let made = try URLEndpointListenerTLSTests.chain()
                let root = Data(try made.root.serializeAsPEM().pemString.utf8)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(
                    remote.collection, authenticator: try ListenerCertificateAuthenticator(rootCerts: [root]))
                let local = try SyncTestDatabase()
                let selfSigned = try TLSIdentity.selfSigned(commonName: "daniel")
                #expect(try await Self.run(local, listener, identity: selfSigned) == .tlsClientCertRejected)
                // Another CA's leaf, presented with the trusted root after it.
                let stranger = try URLEndpointListenerTLSTests.chain()
                let forged = try TLSIdentity(
                    certificatePEM: try stranger.leaf.serializeAsPEM().pemString + "\n"
                        + made.root.serializeAsPEM().pemString,
                    privateKeyPEM: stranger.key)
                #expect(try await Self.run(local, listener, identity: forged) == .tlsClientCertRejected)
                #expect(remote.collection.count == 0)
                await listener.stop()
            }

            @Test func aClientWithoutACertificateStopsWithClientCertRequired() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = try await Self.listener(
                    remote.collection, authenticator: ListenerCertificateAuthenticator { _ in true })
                let local = try SyncTestDatabase()
                #expect(try await Self.run(local, listener, identity: nil) == .tlsClientCertRequired)
                #expect(remote.collection.count == 0)
                await listener.stop()
            }

            @Test func aListenerWithoutTLSRefusesToStartWithACertificateAuthenticator() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                var config = URLEndpointListenerConfiguration(
                    collections: [remote.collection], networkInterface: "127.0.0.1",
                    authenticator: ListenerCertificateAuthenticator { _ in true })
                config.disableTLS = true
                let listener = URLEndpointListener(config: config)
                let error = await #expect(throws: QuireError.self) { try await listener.start() }
                #expect(error?.code == .invalidParameter)
                #expect(listener.port == nil)
            }

            @Test func rootCertificatesThatAreNotCertificatesAreRefused() {
                #expect(throws: QuireError.self) {
                    try ListenerCertificateAuthenticator(rootCerts: [Data("not a certificate".utf8)])
                }
            }
        }
    }
#endif
