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
        /// Couchbase Lite's URLEndpointListenerTest over TLS: the listener's identity (made for
        /// it, or given, with a chain) only while it runs, and which pins a replicator needs.
        @Suite(.serialized) struct URLEndpointListenerTLSTests {
            private static func listener(_ collection: Collection, identity: TLSIdentity? = nil)
                -> URLEndpointListener
            {
                var config = URLEndpointListenerConfiguration(
                    collections: [collection], networkInterface: "127.0.0.1")
                config.disableTLS = false
                config.tlsIdentity = identity
                return URLEndpointListener(config: config)
            }

            /// Replicates `local` with the listener pinning `pin` (nil: no pin); the error code, if any.
            private static func run(
                _ local: SyncTestDatabase, _ listener: URLEndpointListener, pin: Data?
            ) async throws -> QuireError.Code? {
                let url = try #require(URL(string: "https://127.0.0.1:\(listener.port ?? 0)/remote"))
                let outcome = try await replicate(local.collection, with: url) {
                    $0.pinnedServerCertificate = pin
                }
                return outcome.status.error?.code
            }

            /// What Couchbase Lite's testTLSListener… tests check of a started TLS listener: its
            /// certificate pinned replicates; another certificate pinned, or none, is an unknown root.
            private static func checkPins(_ listener: URLEndpointListener, _ remote: SyncTestDatabase) async throws {
                let identity = try #require(listener.tlsIdentity)
                #expect(identity.certificates.count == 1)
                let local = try SyncTestDatabase()
                try local.save("doc-1", #"{"n":1}"#)
                #expect(try await run(local, listener, pin: nil) == .tlsCertUnknownRoot)
                let other = try TLSIdentity.selfSigned(commonName: "client")
                #expect(try await run(local, listener, pin: other.certificates[0]) == .tlsCertUnknownRoot)
                #expect(remote.collection.count == 0)
                #expect(try await run(local, listener, pin: identity.certificates[0]) == nil)
                #expect(remote.collection.count == 1)
            }

            // covers: URLEndpointListenerTest.testTLSListenerAnonymousIdentity, URLEndpointListenerTest.testPinnedServerCertificate
            @Test func aMadeIdentityExistsWhileTheListenerRunsAndOnlyItsPinIsTrusted() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let listener = Self.listener(remote.collection)
                #expect(listener.tlsIdentity == nil)
                try await listener.start()
                try await Self.checkPins(listener, remote)
                await listener.stop()
                #expect(listener.tlsIdentity == nil)
            }

            // covers: URLEndpointListenerTest.testTLSListenerUserIdentity
            @Test func aGivenIdentityIsServedAndOnlyItsPinIsTrusted() async throws {
                let remote = try SyncTestDatabase(name: "remote")
                let given = try TLSIdentity.selfSigned(commonName: "CBL-Server")
                let listener = Self.listener(remote.collection, identity: given)
                #expect(listener.tlsIdentity == nil)
                try await listener.start()
                #expect(listener.tlsIdentity?.sha256Fingerprint == given.sha256Fingerprint)
                try await Self.checkPins(listener, remote)
                await listener.stop()
                #expect(listener.tlsIdentity == nil)
            }

            // covers: URLEndpointListenerTest.testTLSPasswordListenerAuthenticator
            @Test func aPasswordAuthenticatorOverTLSLetsInOnlyTheRightCredentials() async throws {
                try await URLEndpointListenerReplicationTests.passwordAuthentication(tls: true)
            }

            /// A CA and a leaf it signed for 127.0.0.1: the leaf-first chain as PEM, and the leaf's key.
            static func chain() throws -> (pem: String, key: String, leaf: Certificate, root: Certificate) {
                let rootKey = P256.Signing.PrivateKey()
                let rootName = try DistinguishedName { CommonName("Quire test CA") }
                let now = Date()
                let root = try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(rootKey.publicKey),
                    notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(3600),
                    issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    },
                    issuerPrivateKey: .init(rootKey))
                let leafKey = P256.Signing.PrivateKey()
                let leaf = try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(leafKey.publicKey),
                    notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(3600),
                    issuer: rootName, subject: try DistinguishedName { CommonName("CBL-Server") },
                    signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                    },
                    issuerPrivateKey: .init(rootKey))
                let pem = try leaf.serializeAsPEM().pemString + "\n" + root.serializeAsPEM().pemString + "\n"
                return (pem, leafKey.pemRepresentation, leaf, root)
            }

            // covers: URLEndpointListenerTest.testListenerWithImportIdentity
            @Test func anImportedChainIdentityServesWhileTheListenerRuns() async throws {
                let made = try Self.chain()
                let identity = try TLSIdentity(certificatePEM: made.pem, privateKeyPEM: made.key)
                #expect(identity.certificates.count == 2)
                let remote = try SyncTestDatabase(name: "remote")
                let listener = Self.listener(remote.collection, identity: identity)
                #expect(listener.tlsIdentity == nil)
                try await listener.start()
                #expect(listener.tlsIdentity?.sha256Fingerprint == identity.sha256Fingerprint)
                #expect(listener.tlsIdentity?.certificates == identity.certificates)
                let local = try SyncTestDatabase()
                try local.save("doc-1", #"{"n":1}"#)
                #expect(remote.collection.count == 0)
                #expect(try await Self.run(local, listener, pin: identity.certificates[0]) == nil)
                #expect(remote.collection.count == 1)
                await listener.stop()
                #expect(listener.tlsIdentity == nil)
            }
        }
    }
#endif
