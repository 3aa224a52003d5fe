#if TLS
    import NIOSSL

    /// Presents a TLS client certificate to an HTTPS remote that asks for one, such as a
    /// listener with a certificate authenticator. Make one from a listener-side `TLSIdentity`
    /// with `ClientCertificateAuthenticator(identity:)` (QuireListener). A remote that refuses
    /// the certificate stops the replicator with tlsClientCertRejected; one that wanted a
    /// certificate and got none, with tlsClientCertRequired.
    public struct ClientCertificateAuthenticator: Authenticator, Equatable {
        /// The certificate chain presented, leaf first.
        package let chain: [NIOSSLCertificate]
        /// The leaf's private key.
        package let privateKey: NIOSSLPrivateKey

        /// An authenticator presenting `chain` (leaf first) signed with `privateKey`.
        package init(chain: [NIOSSLCertificate], privateKey: NIOSSLPrivateKey) {
            self.chain = chain
            self.privateKey = privateKey
        }

        /// No headers: the certificate is presented in the TLS handshake.
        public func authorizationHeaders() -> [String: String] { [:] }
    }
#endif
