#if TLS
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import NIOTLS
    import Quire

    /// A loopback forwarder that lets the replicator's `URLSession` reach an HTTPS peer with
    /// Quire's own certificate checks: the session speaks plain HTTP to `127.0.0.1:`\(``port``),
    /// and each connection accepted there is paired with a TLS connection to the peer, checked
    /// by ``ServerTrust``, with bytes piped both ways.
    ///
    /// `URLSession` on Linux cannot check a server's certificate per session (no pinning, no
    /// root file), hence the forwarder. One connection in maps to one connection out, so the
    /// session's kept-alive connections stay kept-alive to the peer; either side closing
    /// closes the other. A failed TLS handshake is recorded before the session's connection
    /// closes, so the transport reports it (``takeFailure()``) rather than a lost connection.
    final class TLSForwarder: Sendable {
        /// The loopback port `URLSession` connects to.
        let port: Int
        /// `host:port` of the peer, for messages.
        let target: String
        private let server: any Channel
        private let failure = Locked(QuireError?.none)
        private let open = Locked((channels: [ObjectIdentifier: any Channel](), closed: false))
        /// Told the leaf certificate each TLS connection to the peer presents.
        fileprivate let presented: @Sendable (Data) -> Void

        private init(port: Int, target: String, server: any Channel, presented: @escaping @Sendable (Data) -> Void) {
            self.port = port
            self.target = target
            self.server = server
            self.presented = presented
        }

        /// Starts forwarding to `host:port` with `trust`; invalidParameter for a trust that
        /// cannot be set up, networkError when no loopback port can be bound. Each certificate
        /// the peer presents (its leaf, DER bytes) is passed to `presented`, whether it is
        /// trusted or not.
        static func start(
            host: String, port: Int, trust: ServerTrust, connectTimeout: TimeInterval,
            presented: @escaping @Sendable (Data) -> Void = { _ in }
        ) async throws -> TLSForwarder {
            let context = try trust.clientContext()
            let host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
            // SNI and the name check take a host name; an IP address is checked against the
            // certificate's IP addresses instead.
            let serverHostname = CertificateFingerprint.ipAddressBytes(host) == nil ? host : nil
            let target = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            let box = Locked(TLSForwarder?.none)
            let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.autoRead, value: false)
                .childChannelInitializer { inbound in
                    if let forwarder = box.withLock({ $0 }) {
                        forwarder.accept(
                            inbound, host: host, port: port, context: context, serverHostname: serverHostname,
                            check: trust.peerCheck, connectTimeout: connectTimeout)
                    } else {
                        inbound.close(promise: nil)
                    }
                    return inbound.eventLoop.makeSucceededVoidFuture()
                }
            let server: any Channel
            do {
                server = try await bootstrap.bind(host: "127.0.0.1", port: 0).get()
            } catch {
                throw QuireError(
                    .networkError, "cannot open the loopback port for TLS to \(target): \(error)", domain: .network)
            }
            let forwarder = TLSForwarder(
                port: server.localAddress?.port ?? 0, target: target, server: server, presented: presented)
            box.withLock { $0 = forwarder }
            return forwarder
        }

        /// The TLS failure recorded since the last call, if any, and forgets it.
        func takeFailure() -> QuireError? {
            failure.withLock { failure in
                defer { failure = nil }
                return failure
            }
        }

        /// Stops accepting and closes every connection, in and out.
        func close() {
            let channels = open.withLock { open in
                open.closed = true
                defer { open.channels = [:] }
                return Array(open.channels.values)
            }
            server.close(promise: nil)
            for channel in channels { channel.close(promise: nil) }
        }

        /// Keeps `channel` until it closes, so ``close()`` can reach it; closes it at once
        /// after ``close()``.
        private func track(_ channel: any Channel) {
            let id = ObjectIdentifier(channel)
            let accepted = open.withLock { open in
                guard !open.closed else { return false }
                open.channels[id] = channel
                return true
            }
            guard accepted else {
                channel.close(promise: nil)
                return
            }
            channel.closeFuture.whenComplete { [weak self] _ in
                _ = self?.open.withLock { $0.channels.removeValue(forKey: id) }
            }
        }

        /// Records `error` unless one is already recorded (the pin check's own message comes
        /// before the handshake error it causes).
        fileprivate func record(_ error: QuireError) {
            failure.withLock { failure in
                if failure == nil { failure = error }
            }
        }

        private func accept(
            _ inbound: any Channel, host: String, port: Int, context: NIOSSLContext, serverHostname: String?,
            check: PeerCertificateCheck?, connectTimeout: TimeInterval
        ) {
            track(inbound)
            let target = self.target
            let connecting = ClientBootstrap(group: inbound.eventLoop)
                .connectTimeout(.milliseconds(Int64(max(connectTimeout, 1) * 1000)))
                .channelInitializer { [self] upstream in
                    upstream.eventLoop.makeCompletedFuture {
                        let tls: NIOSSLClientHandler
                        if let check {
                            tls = try NIOSSLClientHandler(context: context, serverHostname: serverHostname) {
                                [self] certificates, promise in
                                promise.succeed(verify(certificates, with: check))
                            }
                        } else {
                            tls = try NIOSSLClientHandler(context: context, serverHostname: serverHostname)
                        }
                        try upstream.pipeline.syncOperations.addHandler(tls)
                        try upstream.pipeline.syncOperations.addHandler(HandshakeWatcher(forwarder: self))
                    }
                }
                .connect(host: host, port: port)
            connecting.assumeIsolated().whenComplete { [self] result in
                switch result {
                case .failure(let error):
                    record(
                        QuireError(.networkError, "cannot connect to \(target): \(error)", domain: .network))
                    inbound.close(promise: nil)
                case .success(let upstream):
                    track(upstream)
                    // Either side closing closes the other, also before the pipes are in
                    // place (the accepted connection may not even be active yet).
                    inbound.closeFuture.whenComplete { _ in upstream.close(promise: nil) }
                    upstream.closeFuture.whenComplete { _ in inbound.close(promise: nil) }
                    let (inboundSide, upstreamSide) = ForwardingHandler.pair()
                    do {
                        try inbound.pipeline.syncOperations.addHandler(inboundSide)
                        try upstream.pipeline.syncOperations.addHandler(upstreamSide)
                    } catch {
                        inbound.close(promise: nil)
                        return
                    }
                    inbound.setOption(.autoRead, value: true).whenFailure { _ in inbound.close(promise: nil) }
                }
            }
        }

        /// Quire's check of the peer's chain (a pin, or only self-signed certificates),
        /// recording why it failed.
        private func verify(_ certificates: [NIOSSLCertificate], with check: PeerCertificateCheck)
            -> NIOSSLVerificationResult
        {
            let chain = certificates.compactMap { try? $0.toDERBytes() }
            if chain.count == certificates.count, let leaf = chain.first { presented(Data(leaf)) }
            if let failure = check.failure(chain.count == certificates.count ? chain : [], target: target) {
                record(failure)
                return .failed
            }
            return .certificateVerified
        }

        /// The error a failed handshake with the peer stands for.
        fileprivate func handshakeFailure(_ error: any Error) -> QuireError {
            // BoringSSL's errors name the C source file and line they were raised at: a path
            // on the machine that built the library, of no use to whoever reads the message.
            let text = TLSForwarder.describe(error)
            if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return QuireError(
                    .tlsCertUntrusted, "the certificate of \(target) is not for that host name: \(text)",
                    domain: .network)
            }
            if let refusal = TLSForwarder.clientCertificateRefusal(text, target: target) { return refusal }
            if text.contains("CERTIFICATE_VERIFY_FAILED") {
                return QuireError(
                    .tlsCertUnknownRoot,
                    "the certificate of \(target) is not trusted (no chain to a trusted root, or expired): \(text)",
                    domain: .network)
            }
            return QuireError(.tlsHandshakeFailed, "the TLS handshake with \(target) failed: \(text)", domain: .network)
        }
    }

    extension TLSForwarder {
        /// The text of a TLS error without the C source paths BoringSSL's errors name.
        static func describe(_ error: any Error) -> String {
            String(describing: error).replacingOccurrences(
                of: #" at [^ \]\)]+:[0-9]+"#, with: "", options: .regularExpression)
        }

        /// The error for an alert by which the peer refused the client certificate (or the
        /// lack of one), from BoringSSL's text for `error`; nil for any other error. With
        /// TLS 1.3 the alert comes after the client's side of the handshake has completed.
        static func clientCertificateRefusal(_ text: String, target: String) -> QuireError? {
            if text.contains("ALERT_CERTIFICATE_REQUIRED") {
                return QuireError(
                    .tlsClientCertRequired, "\(target) requires a client certificate: \(text)", domain: .network)
            }
            let refusals = [
                "ALERT_BAD_CERTIFICATE", "ALERT_CERTIFICATE_UNKNOWN", "ALERT_UNKNOWN_CA", "ALERT_CERTIFICATE_REVOKED",
                "ALERT_CERTIFICATE_EXPIRED", "ALERT_UNSUPPORTED_CERTIFICATE", "ALERT_ACCESS_DENIED",
            ]
            guard refusals.contains(where: { text.contains($0) }) else { return nil }
            return QuireError(
                .tlsClientCertRejected, "\(target) refused the client certificate: \(text)", domain: .network)
        }
    }

    /// Records an error that ends the connection to the peer before its TLS handshake has
    /// completed, or the peer's refusal of the client certificate (with TLS 1.3, after it),
    /// then lets the connection close.
    private final class HandshakeWatcher: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        private let forwarder: TLSForwarder
        private var handshakeDone = false

        init(forwarder: TLSForwarder) {
            self.forwarder = forwarder
        }

        func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
            if let event = event as? TLSUserEvent, case .handshakeCompleted = event {
                handshakeDone = true
                reportPeerCertificate(context)
            }
            context.fireUserInboundEventTriggered(event)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if !handshakeDone {
                // A certificate refused by BoringSSL's own checks was still presented.
                reportPeerCertificate(context)
                forwarder.record(forwarder.handshakeFailure(error))
            } else if let refusal = TLSForwarder.clientCertificateRefusal(
                TLSForwarder.describe(error), target: forwarder.target)
            {
                forwarder.record(refusal)
            }
            context.close(promise: nil)
        }

        /// Tells the forwarder the leaf certificate the peer presented, when there is one.
        private func reportPeerCertificate(_ context: ChannelHandlerContext) {
            guard let handler = try? context.pipeline.syncOperations.handler(type: NIOSSLClientHandler.self),
                let certificate = handler.peerCertificate, let der = try? certificate.toDERBytes()
            else { return }
            forwarder.presented(Data(der))
        }
    }
#endif
