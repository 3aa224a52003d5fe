#if TLS
    import Foundation
    import NIOSSL
    import Quire

    /// How a replicator decides to trust an HTTPS peer: by the SHA-256 digest of a pinned
    /// certificate (the peer's leaf certificate must be that one; its host name is not
    /// checked), or by a chain to a root from a PEM file or the system's roots, with the host
    /// name checked against the certificate.
    struct ServerTrust: Sendable, Equatable {
        /// The digest of the pinned certificate's DER bytes; nil checks the chain instead.
        var pinnedSHA256: [UInt8]?
        /// A PEM file of root certificates to trust instead of the system's.
        var rootsFile: String?
        /// No check at all (``ReplicatorConfiguration/acceptsAnyServerCertificate``).
        var acceptsAny = false
        /// Only a self-signed certificate is trusted, when nothing is pinned
        /// (``ReplicatorConfiguration/acceptOnlySelfSignedServerCertificate``).
        var acceptsOnlySelfSigned = false
        /// The client certificate presented to a peer that asks for one.
        var clientCertificate: ClientCertificateAuthenticator?

        /// Quire's own check of the presented chain, replacing BoringSSL's; nil when the
        /// chain is checked against the roots (or not at all).
        var peerCheck: PeerCertificateCheck? {
            guard !acceptsAny, pinnedSHA256 != nil || acceptsOnlySelfSigned else { return nil }
            return PeerCertificateCheck(pinnedSHA256: pinnedSHA256, onlySelfSigned: acceptsOnlySelfSigned)
        }

        /// The trust `configuration` asks for; invalidParameter for a pin that is not a
        /// certificate or a fingerprint, or for both kinds of pin at once.
        init(_ configuration: ReplicatorConfiguration) throws {
            if configuration.pinnedServerCertificate != nil, configuration.pinnedServerCertificateSHA256 != nil {
                throw QuireError(
                    .invalidParameter,
                    "pin the server certificate with pinnedServerCertificate or pinnedServerCertificateSHA256, not both"
                )
            }
            if let certificate = configuration.pinnedServerCertificate {
                pinnedSHA256 = Array(try ServerTrust.digest(ofCertificate: certificate))
            } else if let fingerprint = configuration.pinnedServerCertificateSHA256 {
                pinnedSHA256 = try ServerTrust.digest(ofFingerprint: fingerprint)
            }
            rootsFile = configuration.trustedRootCertificatesFile?.path
            acceptsAny = configuration.acceptsAnyServerCertificate
            acceptsOnlySelfSigned = configuration.acceptOnlySelfSignedServerCertificate
            clientCertificate = configuration.authenticator as? ClientCertificateAuthenticator
        }

        /// The SHA-256 of a certificate given as DER bytes or PEM text (its first certificate).
        static func digest(ofCertificate data: Data) throws -> [UInt8] {
            let der: [UInt8]
            do {
                let text = String(decoding: data.prefix(1024), as: UTF8.self)
                if text.contains("-----BEGIN") {
                    guard let first = try NIOSSLCertificate.fromPEMBytes(Array(data)).first else {
                        throw QuireError(.invalidParameter, "no certificate in the PEM text")
                    }
                    der = try first.toDERBytes()
                } else {
                    der = try NIOSSLCertificate(bytes: Array(data), format: .der).toDERBytes()
                }
            } catch {
                throw QuireError(
                    .invalidParameter, "pinnedServerCertificate is not a DER or PEM certificate: \(error)")
            }
            return CertificateFingerprint.digest(ofDER: der)
        }

        /// The 32 bytes of a SHA-256 fingerprint written in hex, with or without colons or
        /// spaces between the bytes, in either case.
        static func digest(ofFingerprint text: String) throws -> [UInt8] {
            let hex = text.filter { $0 != ":" && $0 != " " }
            var bytes: [UInt8] = []
            var rest = hex[...]
            while rest.count >= 2, let byte = UInt8(rest.prefix(2), radix: 16) {
                bytes.append(byte)
                rest = rest.dropFirst(2)
            }
            guard rest.isEmpty, bytes.count == 32 else {
                throw QuireError(
                    .invalidParameter,
                    "pinnedServerCertificateSHA256 '\(text)' is not a SHA-256 fingerprint (64 hex digits)")
            }
            return bytes
        }

        /// The client context for this trust.
        func clientContext() throws -> NIOSSLContext {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.minimumTLSVersion = .tlsv12
            if acceptsAny {
                configuration.certificateVerification = .none
            } else if peerCheck != nil {
                // The pin, or the self-signed check, replaces chain and name checks (a custom
                // verification callback).
                configuration.certificateVerification = .noHostnameVerification
            } else if let rootsFile {
                configuration.trustRoots = .file(rootsFile)
            }
            if let clientCertificate {
                configuration.certificateChain = clientCertificate.chain.map { .certificate($0) }
                configuration.privateKey = .privateKey(clientCertificate.privateKey)
            }
            do {
                return try NIOSSLContext(configuration: configuration)
            } catch {
                throw QuireError(
                    .invalidParameter,
                    "cannot set up TLS\(rootsFile.map { " with the root certificates in \($0)" } ?? ""): \(error)")
            }
        }
    }
#endif
