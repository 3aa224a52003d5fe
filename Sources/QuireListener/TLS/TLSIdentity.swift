#if TLS
    import Crypto
    import Foundation
    import NIOSSL
    import Quire
    import QuireSync
    import SwiftASN1
    import X509

    /// A certificate chain and its private key: what a ``URLEndpointListener`` presents to
    /// clients when it serves HTTPS.
    ///
    /// Load one from PEM text or files (``init(certificatePEM:privateKeyPEM:)``,
    /// ``init(certificateFile:privateKeyFile:)``), or make a self-signed one
    /// (``selfSigned(commonName:hosts:validity:)``). A replicator trusts the listener by pinning
    /// ``certificatePEM`` or ``sha256Fingerprint`` (`ReplicatorConfiguration.pinnedServerCertificate`).
    ///
    /// Unlike Couchbase Lite's `TLSIdentity`, which lives in the platform's keychain under a
    /// label, this one is plain data: keep the PEM files wherever the app keeps its secrets.
    public struct TLSIdentity: Sendable {
        /// The certificate chain, leaf first, each certificate DER-encoded.
        public let certificates: [Data]
        /// The certificate chain, leaf first, as PEM text.
        public let certificatePEM: String
        /// The SHA-256 digest of the leaf certificate's DER bytes, as 32 upper-case hex byte
        /// pairs joined by colons (`AB:12:…`), the form `openssl x509 -fingerprint -sha256` prints.
        public let sha256Fingerprint: String
        let chain: [NIOSSLCertificate]
        let privateKey: NIOSSLPrivateKey

        /// An identity from PEM text: `certificatePEM` holds the leaf certificate, optionally
        /// followed by the intermediates; `privateKeyPEM` the leaf's private key (PKCS #8, or
        /// PKCS #1 / SEC 1). Throws invalidParameter for text that is not a certificate or a
        /// key, or a key that does not belong to the certificate.
        public init(certificatePEM: String, privateKeyPEM: String) throws {
            let chain: [NIOSSLCertificate]
            let key: NIOSSLPrivateKey
            do {
                chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
            } catch {
                throw QuireError(.invalidParameter, "the TLS certificate is not a PEM certificate: \(error)")
            }
            guard !chain.isEmpty else {
                throw QuireError(.invalidParameter, "the TLS certificate PEM holds no certificate")
            }
            do {
                key = try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem)
            } catch {
                throw QuireError(.invalidParameter, "the TLS private key is not a PEM private key: \(error)")
            }
            try self.init(chain: chain, privateKey: key)
        }

        /// An identity from a PEM certificate file (leaf first, then any intermediates) and a
        /// PEM private-key file. Throws what ``init(certificatePEM:privateKeyPEM:)`` throws, and
        /// cantOpenFile (domain POSIX) for a file that cannot be read.
        public init(certificateFile: URL, privateKeyFile: URL) throws {
            func read(_ file: URL, _ what: String) throws -> String {
                do {
                    return try String(contentsOf: file, encoding: .utf8)
                } catch {
                    throw QuireError(.cantOpenFile, "cannot read the TLS \(what) file \(file.path): \(error)")
                }
            }
            try self.init(
                certificatePEM: read(certificateFile, "certificate"), privateKeyPEM: read(privateKeyFile, "private key")
            )
        }

        private init(chain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) throws {
            // A context built from the pair checks that the key belongs to the leaf.
            do {
                _ = try NIOSSLContext(
                    configuration: .makeServerConfiguration(
                        certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey)))
            } catch {
                throw QuireError(
                    .invalidParameter, "the TLS private key and certificate do not make an identity: \(error)")
            }
            let ders = try chain.map { Data(try $0.toDERBytes()) }
            self.chain = chain
            self.privateKey = privateKey
            self.certificates = ders
            self.certificatePEM = ders.map { TLSIdentity.pem($0, label: "CERTIFICATE") }.joined()
            self.sha256Fingerprint = CertificateFingerprint.fingerprint(ofDER: ders[0])
        }

        /// A new self-signed identity with a fresh P-256 key: a certificate for `commonName`
        /// whose subject alternative names are `hosts` (host names, IPv4 and IPv6 addresses),
        /// valid from an hour ago for `validity`. What a listener with TLS on and no identity
        /// uses, as Couchbase Lite's listener makes an anonymous identity.
        public static func selfSigned(
            commonName: String = "Quire", hosts: [String] = ["localhost", "127.0.0.1", "::1"],
            validity: Duration = .seconds(365 * 24 * 3600)
        ) throws -> TLSIdentity {
            let (certificatePEM, privateKeyPEM) = try selfSignedPEM(
                commonName: commonName, hosts: hosts, validity: validity)
            return try TLSIdentity(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
        }

        /// The PEM texts of a new self-signed certificate and its P-256 key, as
        /// ``selfSigned(commonName:hosts:validity:)`` makes them.
        static func selfSignedPEM(
            commonName: String, hosts: [String], validity: Duration
        ) throws -> (certificate: String, privateKey: String) {
            let key = P256.Signing.PrivateKey()
            let now = Date()
            do {
                let name = try DistinguishedName { CommonName(commonName) }
                let names = hosts.map { host -> GeneralName in
                    if let address = CertificateFingerprint.ipAddressBytes(host) {
                        return .ipAddress(ASN1OctetString(contentBytes: address[...]))
                    }
                    return .dnsName(host)
                }
                let extensions = try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true, keyCertSign: false))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names)
                }
                let certificate = try Certificate(
                    version: .v3, serialNumber: Certificate.SerialNumber(),
                    publicKey: Certificate.PublicKey(key.publicKey),
                    notValidBefore: now.addingTimeInterval(-3600),
                    notValidAfter: now.addingTimeInterval(TimeInterval(validity.components.seconds)),
                    issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
                    issuerPrivateKey: Certificate.PrivateKey(key))
                return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
            } catch let error as QuireError {
                throw error
            } catch {
                throw QuireError(.crypto, "cannot make a self-signed TLS certificate: \(error)")
            }
        }

        /// The context a listener serves HTTPS with; one that asks each client for a
        /// certificate (checked by the handler's own verification callback) when
        /// `requestsClientCertificate`.
        func serverContext(requestsClientCertificate: Bool = false) throws -> NIOSSLContext {
            var configuration = TLSConfiguration.makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(privateKey))
            configuration.minimumTLSVersion = .tlsv12
            if requestsClientCertificate { configuration.certificateVerification = .noHostnameVerification }
            return try NIOSSLContext(configuration: configuration)
        }

        // MARK: Helpers

        /// DER bytes as PEM text with `label`.
        static func pem(_ der: Data, label: String) -> String {
            let base64 = der.base64EncodedString()
            var lines: [Substring] = []
            var rest = base64[...]
            while !rest.isEmpty {
                lines.append(rest.prefix(64))
                rest = rest.dropFirst(64)
            }
            return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
        }
    }
#endif
