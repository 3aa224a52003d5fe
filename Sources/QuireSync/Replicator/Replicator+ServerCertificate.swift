#if TLS
    import Foundation

    extension Replicator {
        /// The certificate an `https` remote presented (its leaf, DER bytes), as Couchbase
        /// Lite's `serverCertificate`: nil until a connection's TLS handshake got one, then the
        /// last one presented, kept after the replicator stops, and also when the replicator
        /// did not trust it (so it can be checked and pinned). Always nil for an `http` remote.
        /// Present with the package's `TLS` trait.
        public var serverCertificate: Data? {
            presentedCertificate.withLock { $0 }
        }
    }
#endif
