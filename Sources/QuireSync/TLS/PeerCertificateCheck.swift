#if TLS
    import Foundation
    import Quire
    import X509

    /// The replicator's own check of the certificates an HTTPS peer presents, made instead of
    /// BoringSSL's chain and host-name checks when a certificate is pinned or only
    /// self-signed certificates are accepted (Couchbase Lite's `pinnedServerCertificate` and
    /// `acceptOnlySelfSignedServerCertificate`).
    ///
    /// A pin is matched by the leaf certificate or by a certificate further up the presented
    /// chain, each certificate up to it signed by the next (so a pinned CA trusts the leaves
    /// it signed, as in Couchbase Lite's testChainedCertServerAndCertPinning). Without a pin,
    /// accepting only self-signed certificates takes a leaf issued by itself, signed with its
    /// own key and within its validity dates.
    struct PeerCertificateCheck: Sendable, Equatable {
        /// The SHA-256 of the pinned certificate's DER bytes.
        var pinnedSHA256: [UInt8]?
        /// Whether only a self-signed leaf is accepted (when nothing is pinned).
        var onlySelfSigned = false

        /// Nil when the chain (leaf first, DER bytes) presented by `target` is trusted, else
        /// the error saying why not.
        func failure(_ chain: [[UInt8]], target: String, now: Date = Date()) -> QuireError? {
            guard let leafDER = chain.first else {
                return QuireError(.tlsCertUnknownRoot, "\(target) presented no certificate", domain: .network)
            }
            if let pin = pinnedSHA256 {
                guard let index = chain.firstIndex(where: { CertificateFingerprint.digest(ofDER: $0) == pin }) else {
                    let leaf = CertificateFingerprint.digest(ofDER: leafDER)
                    return QuireError(
                        .tlsCertUnknownRoot,
                        "the certificate of \(target) (SHA-256 \(CertificateFingerprint.fingerprint(leaf))) does not match the pinned certificate (SHA-256 \(CertificateFingerprint.fingerprint(pin))), nor does any certificate of its chain",
                        domain: .network)
                }
                guard index == 0 || Self.isSignedChain(chain[0...index]) else {
                    return QuireError(
                        .tlsCertUnknownRoot,
                        "the certificate chain of \(target) holds the pinned certificate (SHA-256 \(CertificateFingerprint.fingerprint(pin))), but its leaf is not signed through it",
                        domain: .network)
                }
                return nil
            }
            guard onlySelfSigned else { return nil }
            guard let leaf = try? Certificate(derEncoded: leafDER) else {
                return QuireError(
                    .tlsCertUntrusted, "the certificate of \(target) is not a readable X.509 certificate",
                    domain: .network)
            }
            guard leaf.issuer == leaf.subject, leaf.publicKey.isValidSignature(leaf.signature, for: leaf) else {
                return QuireError(
                    .tlsCertUntrusted,
                    "the certificate of \(target) is not self-signed (its issuer is \(leaf.issuer)); the replicator accepts only self-signed certificates (acceptOnlySelfSignedServerCertificate)",
                    domain: .network)
            }
            guard leaf.notValidBefore <= now, now <= leaf.notValidAfter else {
                return QuireError(
                    .tlsCertExpired,
                    "the self-signed certificate of \(target) is valid from \(leaf.notValidBefore) to \(leaf.notValidAfter), not now",
                    domain: .network)
            }
            return nil
        }

        /// Whether each certificate of `chain` (leaf first) is issued and signed by the next.
        private static func isSignedChain(_ chain: ArraySlice<[UInt8]>) -> Bool {
            guard let parsed = try? chain.map({ try Certificate(derEncoded: $0) }) else { return false }
            return zip(parsed, parsed.dropFirst()).allSatisfy { child, issuer in
                child.issuer == issuer.subject && issuer.publicKey.isValidSignature(child.signature, for: child)
            }
        }
    }
#endif
