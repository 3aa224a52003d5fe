#if TLS
    import Foundation
    import Quire
    import X509

    /// Checks the certificate a client presents in the TLS handshake of an HTTPS
    /// ``URLEndpointListener`` (one that does not disable TLS): the listener asks every
    /// client for a certificate and ends the handshake of one that presents none or one this
    /// authenticator refuses. A replicator presents one with `ClientCertificateAuthenticator`.
    ///
    /// Either a callback decides (``init(_:)``), or the client's chain must lead to one of
    /// a set of root certificates (``init(rootCerts:)``).
    public struct ListenerCertificateAuthenticator: ListenerAuthenticator {
        private let check: @Sendable ([Data]) -> Bool

        /// An authenticator that accepts the client certificate chains for which
        /// `authenticate` returns true. It is given the chain the client presented, leaf
        /// first, each certificate DER-encoded (parse one with X509's `Certificate(derEncoded:)`),
        /// as Couchbase Lite's callback is given `SecCertificate`s. It is called during each
        /// TLS handshake, possibly from several threads at once.
        public init(_ authenticate: @escaping @Sendable (_ certificates: [Data]) -> Bool) {
            check = authenticate
        }

        /// An authenticator that accepts a client whose leaf certificate is within its
        /// validity dates and is signed by one of `rootCerts`, directly or through the
        /// intermediate certificates the client presents after it. Each root is DER bytes or
        /// PEM text; invalidParameter for one that is neither.
        public init(rootCerts: [Data]) throws {
            let roots = try rootCerts.map { data in
                do {
                    if String(decoding: data.prefix(1024), as: UTF8.self).contains("-----BEGIN") {
                        return try Certificate(pemEncoded: String(decoding: data, as: UTF8.self))
                    }
                    return try Certificate(derEncoded: Array(data))
                } catch {
                    throw QuireError(.invalidParameter, "a root certificate is not a DER or PEM certificate: \(error)")
                }
            }
            check = { chain in ListenerCertificateAuthenticator.leadsToRoot(chain, roots: roots, now: Date()) }
        }

        /// Whether the client's chain (leaf first, DER bytes) is accepted.
        func accepts(_ chain: [Data]) -> Bool {
            !chain.isEmpty && check(chain)
        }

        /// Whether `chain`'s leaf is valid at `now` and signed, through the chain's next
        /// certificates, by one of `roots`.
        static func leadsToRoot(_ chain: [Data], roots: [Certificate], now: Date) -> Bool {
            guard let parsed = try? chain.map({ try Certificate(derEncoded: Array($0)) }), let leaf = parsed.first,
                leaf.notValidBefore <= now, now <= leaf.notValidAfter
            else { return false }
            func signs(_ issuer: Certificate, _ child: Certificate) -> Bool {
                child.issuer == issuer.subject && issuer.publicKey.isValidSignature(child.signature, for: child)
            }
            var current = leaf
            var rest = parsed.dropFirst()
            while true {
                if roots.contains(where: { $0 == current || signs($0, current) }) { return true }
                guard let next = rest.first, signs(next, current) else { return false }
                current = next
                rest = rest.dropFirst()
            }
        }
    }
#endif
