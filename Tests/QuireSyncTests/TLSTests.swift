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
        /// HTTPS: the listener's identities (self-signed, or PEM files), replication over TLS
        /// with a pinned certificate or a root file, and what is refused (a wrong pin, no pin
        /// for a self-signed certificate, plain HTTP to the TLS port, TLS to a plain port).
        @Suite(.serialized) struct TLSTests {
            /// A listener on 127.0.0.1 serving TLS with `identity` (nil: self-signed).
            private static func tlsPeer(identity: TLSIdentity? = nil) async throws -> (
                SyncTestDatabase, URLEndpointListener
            ) {
                let store = try SyncTestDatabase(name: "remote")
                var config = URLEndpointListenerConfiguration(
                    collections: [store.collection], networkInterface: "127.0.0.1")
                config.disableTLS = false
                config.tlsIdentity = identity
                let listener = URLEndpointListener(config: config)
                try await listener.start()
                return (store, listener)
            }

            private static func url(_ listener: URLEndpointListener, scheme: String = "https") throws -> URL {
                try #require(URL(string: "\(scheme)://127.0.0.1:\(listener.port ?? 0)/remote"))
            }

            /// A certificate for 127.0.0.1 made with X509, and its key, as PEM text.
            private static func makePEM(commonName: String = "test server") throws -> (certificate: String, key: String)
            {
                let key = P256.Signing.PrivateKey()
                let name = try DistinguishedName { CommonName(commonName) }
                let certificate = try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                    notValidBefore: Date().addingTimeInterval(-60), notValidAfter: Date().addingTimeInterval(3600),
                    issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                    },
                    issuerPrivateKey: .init(key))
                return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
            }

            @Test func aSelfSignedIdentityHasTheFingerprintOfItsDERCertificate() throws {
                let identity = try TLSIdentity.selfSigned(commonName: "unit")
                #expect(identity.certificates.count == 1)
                let digest = SHA256.hash(data: identity.certificates[0])
                #expect(identity.sha256Fingerprint == digest.map { String(format: "%02X", $0) }.joined(separator: ":"))
                #expect(identity.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
                let parsed = try Certificate(pemEncoded: identity.certificatePEM)
                #expect(parsed.subject.description.contains("unit"))
                #expect(parsed.issuer == parsed.subject)
                let names = try parsed.extensions.subjectAlternativeNames
                #expect(names?.contains(.dnsName("localhost")) == true)
                #expect(names?.contains(.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))) == true)
                #expect(try TLSIdentity.selfSigned().sha256Fingerprint != identity.sha256Fingerprint)
            }

            @Test func theListenerMakesOneIdentityAndServesHTTPSURLs() async throws {
                let (store, listener) = try await TLSTests.tlsPeer()
                let identity = try #require(listener.tlsIdentity)
                #expect(listener.urls?.first?.scheme == "https")
                #expect(listener.serverURLs?.first?.absoluteString == "https://127.0.0.1:\(listener.port ?? 0)/")
                await listener.stop()
                #expect(listener.tlsIdentity == nil)
                // A restart presents the same certificate, so a pin keeps working.
                try await listener.start()
                #expect(listener.tlsIdentity?.sha256Fingerprint == identity.sha256Fingerprint)
                await listener.stop()
                // TLS off (the default): plain HTTP and no identity.
                let plain = URLEndpointListener(
                    config: URLEndpointListenerConfiguration(
                        collections: [store.collection], networkInterface: "127.0.0.1"))
                try await plain.start()
                #expect(plain.tlsIdentity == nil)
                #expect(plain.urls?.first?.scheme == "http")
                await plain.stop()
            }

            @Test func pushAndPullOverTLSWithAPinnedCertificate() async throws {
                let local = try SyncTestDatabase()
                let (remote, listener) = try await TLSTests.tlsPeer()
                let identity = try #require(listener.tlsIdentity)
                for index in 0..<10 { try local.save("local-\(index)", #"{"n": \#(index)}"#) }
                for index in 0..<5 { try remote.save("remote-\(index)", #"{"n": \#(index)}"#) }

                let outcome = try await replicate(local.collection, with: try TLSTests.url(listener)) {
                    $0.pinnedServerCertificate = Data(identity.certificatePEM.utf8)
                }
                #expect(outcome.status.error == nil)
                #expect(outcome.pushed.count == 10)
                #expect(outcome.pulled.count == 5)
                #expect(remote.collection.count == 15)
                #expect(local.collection.count == 15)
                // Kept-alive connections stay kept-alive through the forwarder: the dozen requests
                // of a push and a pull share a connection or two.
                #expect(listener.acceptedConnectionCount <= 2, "accepted \(listener.acceptedConnectionCount)")

                // The pin as DER bytes, and as a fingerprint (any case, with or without colons),
                // over wss:// too.
                try local.save("later", #"{"n": 99}"#)
                let der = try await replicate(local.collection, with: try TLSTests.url(listener), type: .push) {
                    $0.pinnedServerCertificate = identity.certificates[0]
                }
                #expect(der.status.error == nil)
                #expect(der.pushed.map(\.id) == ["later"])
                let fingerprint = identity.sha256Fingerprint.replacingOccurrences(of: ":", with: "").lowercased()
                let byFingerprint = try await replicate(
                    local.collection, with: try TLSTests.url(listener, scheme: "wss"), type: .pull
                ) { $0.pinnedServerCertificateSHA256 = fingerprint }
                #expect(byFingerprint.status.error == nil)
                await listener.stop()
            }

            @Test func aWrongPinStopsTheReplicatorWithAnUnknownRootError() async throws {
                let local = try SyncTestDatabase()
                let (remote, listener) = try await TLSTests.tlsPeer()
                try remote.save("secret", #"{"n": 1}"#)
                let other = try TLSIdentity.selfSigned()
                let started = Date()
                let outcome = try await replicate(local.collection, with: try TLSTests.url(listener)) {
                    $0.pinnedServerCertificate = Data(other.certificatePEM.utf8)
                    $0.maxAttempts = 5
                }
                let error = try #require(outcome.status.error)
                #expect(error.code == .tlsCertUnknownRoot)
                #expect(error.domain == .network)
                #expect(error.message.contains("does not match the pinned certificate"))
                #expect(error.message.contains(other.sha256Fingerprint))
                #expect(error.message.contains(try #require(listener.tlsIdentity).sha256Fingerprint))
                // Not retried: a certificate does not change by waiting.
                #expect(!outcome.activities.contains(.offline))
                #expect(Date().timeIntervalSince(started) < 10)
                #expect(local.collection.count == 0)

                // No pin: the self-signed certificate has no trusted root.
                let unpinned = try await replicate(local.collection, with: try TLSTests.url(listener))
                #expect(unpinned.status.error?.code == .tlsCertUnknownRoot)
                await listener.stop()
            }

            @Test func plainHTTPToTheTLSPortIsRefusedAndTheListenerKeepsServing() async throws {
                let local = try SyncTestDatabase()
                let (remote, listener) = try await TLSTests.tlsPeer()
                let port = try #require(listener.port)
                // The handshake fails on the first bytes and the connection closes: no reply.
                let reply = try? await RawHTTPClient(port: port).send("GET /remote HTTP/1.1", timeoutSeconds: 10)
                #expect(reply == nil)
                // Over HTTP through URLSession, likewise a failure rather than a hang.
                let plain = try await replicate(local.collection, with: try TLSTests.url(listener, scheme: "http")) {
                    $0.maxAttempts = 1
                }
                #expect(plain.status.error != nil)
                try await eventually("the refused connections to close") { listener.openConnectionCount == 0 }
                let identity = try #require(listener.tlsIdentity)
                let outcome = try await replicate(local.collection, with: try TLSTests.url(listener)) {
                    $0.pinnedServerCertificateSHA256 = identity.sha256Fingerprint
                }
                #expect(outcome.status.error == nil)
                await listener.stop()
                withExtendedLifetime(remote) {}
            }

            @Test func tlsToAPlainListenerFailsTheHandshake() async throws {
                let local = try SyncTestDatabase()
                let remote = try await ListeningPeer()
                let url = try #require(URL(string: "https://127.0.0.1:\(remote.port)/remote"))
                let outcome = try await replicate(local.collection, with: url) {
                    $0.pinnedServerCertificateSHA256 = try? TLSIdentity.selfSigned().sha256Fingerprint
                }
                #expect(outcome.status.error?.code == .tlsHandshakeFailed)
                #expect(!outcome.activities.contains(.offline))
                await remote.stop()
            }

            @Test func anIdentityFromPEMFilesServesAndARootFileTrustsIt() async throws {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "quire-tls-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                let (certificatePEM, keyPEM) = try TLSTests.makePEM()
                let certificateFile = folder.appendingPathComponent("server.pem")
                let keyFile = folder.appendingPathComponent("server.key")
                try Data(certificatePEM.utf8).write(to: certificateFile)
                try Data(keyPEM.utf8).write(to: keyFile)
                let identity = try TLSIdentity(certificateFile: certificateFile, privateKeyFile: keyFile)
                #expect(identity.certificates[0] == Data(try PEMDocument(pemString: certificatePEM).derBytes))

                let local = try SyncTestDatabase()
                let (remote, listener) = try await TLSTests.tlsPeer(identity: identity)
                #expect(listener.tlsIdentity?.sha256Fingerprint == identity.sha256Fingerprint)
                try remote.save("from-files", #"{"n": 1}"#)
                // Trusted through a root file (the certificate names 127.0.0.1).
                let outcome = try await replicate(local.collection, with: try TLSTests.url(listener), type: .pull) {
                    $0.trustedRootCertificatesFile = certificateFile
                }
                #expect(outcome.status.error == nil)
                #expect(outcome.pulled.map(\.id) == ["from-files"])
                // A root file without it: no trusted root.
                let otherFile = folder.appendingPathComponent("other.pem")
                try Data(try TLSTests.makePEM(commonName: "other").certificate.utf8).write(to: otherFile)
                let refused = try await replicate(local.collection, with: try TLSTests.url(listener), type: .pull) {
                    $0.trustedRootCertificatesFile = otherFile
                }
                #expect(refused.status.error?.code == .tlsCertUnknownRoot)
                await listener.stop()

                // A key that is not the certificate's, and files that are not PEM.
                let otherKey = folder.appendingPathComponent("other.key")
                try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: otherKey)
                #expect(throws: QuireError.self) {
                    try TLSIdentity(certificateFile: certificateFile, privateKeyFile: otherKey)
                }
                #expect(throws: QuireError.self) {
                    try TLSIdentity(certificatePEM: "not a certificate", privateKeyPEM: keyPEM)
                }
                #expect(throws: QuireError.self) {
                    try TLSIdentity(
                        certificateFile: folder.appendingPathComponent("missing.pem"), privateKeyFile: keyFile)
                }
            }

            @Test func aMalformedPinIsAnInvalidParameter() throws {
                let local = try SyncTestDatabase()
                var config = ReplicatorConfiguration(target: URLEndpoint(url: URL(fileURLWithPath: "/")))
                config.addCollection(local.collection)
                config.pinnedServerCertificateSHA256 = "AB:CD"
                #expect(throws: QuireError.self) { try ServerTrust(config) }
                config.pinnedServerCertificateSHA256 = nil
                config.pinnedServerCertificate = Data("not a certificate".utf8)
                #expect(throws: QuireError.self) { try ServerTrust(config) }
                config.pinnedServerCertificate = Data(try TLSIdentity.selfSigned().certificatePEM.utf8)
                config.pinnedServerCertificateSHA256 = String(repeating: "ab", count: 32)
                #expect(throws: QuireError.self) { try ServerTrust(config) }
            }
        }
    }
#endif
