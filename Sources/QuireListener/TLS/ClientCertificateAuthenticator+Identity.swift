#if TLS
    import QuireSync

    extension ClientCertificateAuthenticator {
        /// An authenticator presenting `identity`'s certificate chain, with its private key,
        /// to a listener that asks for a client certificate (``ListenerCertificateAuthenticator``).
        public init(identity: TLSIdentity) {
            self.init(chain: identity.chain, privateKey: identity.privateKey)
        }
    }
#endif
