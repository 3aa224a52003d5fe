#if TLS
    import Foundation
    import Quire
    import QuireSync

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension TLSIdentity {
        /// The file name of a stored self-signed certificate (PEM).
        public static let storedCertificateName = "quire-tls-certificate.pem"
        /// The file name of a stored self-signed certificate's private key (PEM, mode 0600).
        public static let storedPrivateKeyName = "quire-tls-key.pem"

        /// The self-signed identity kept in `directory`: the one stored there by an earlier
        /// call, else a new one (as ``selfSigned(commonName:hosts:validity:)`` makes it) that
        /// is stored for the next. A listener that restarts with it keeps its certificate, so
        /// replicators that pinned its fingerprint keep trusting it.
        ///
        /// The folder is created when missing; the key is written readable by its owner only,
        /// then the certificate, each through a temporary file renamed into place. A key
        /// without its certificate (a run stopped between the two) is replaced, since that
        /// certificate was never served.
        ///
        /// - Throws: ``QuireError/Code/invalidParameter`` when a stored certificate has no
        ///   key, or the stored files do not make an identity; a POSIX-domain error when the
        ///   folder or files cannot be written or read.
        public static func selfSigned(
            storedIn directory: URL, commonName: String = "Quire",
            hosts: [String] = ["localhost", "127.0.0.1", "::1"], validity: Duration = .seconds(365 * 24 * 3600)
        ) throws -> TLSIdentity {
            let certificateFile = directory.appendingPathComponent(storedCertificateName)
            let keyFile = directory.appendingPathComponent(storedPrivateKeyName)
            let manager = FileManager.default
            if manager.fileExists(atPath: certificateFile.path) {
                guard manager.fileExists(atPath: keyFile.path) else {
                    throw QuireError(
                        .invalidParameter,
                        "the stored TLS certificate \(certificateFile.path) has no private key beside it (\(storedPrivateKeyName)); remove the certificate to make a new identity"
                    )
                }
                return try TLSIdentity(certificateFile: certificateFile, privateKeyFile: keyFile)
            }
            do {
                try manager.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw QuireError.posix(EIO, "cannot create the TLS identity folder \(directory.path): \(error)")
            }
            let (certificatePEM, privateKeyPEM) = try selfSignedPEM(
                commonName: commonName, hosts: hosts, validity: validity)
            let identity = try TLSIdentity(certificatePEM: certificatePEM, privateKeyPEM: privateKeyPEM)
            try writeReplacing(keyFile, privateKeyPEM, mode: 0o600)
            try writeReplacing(certificateFile, certificatePEM, mode: 0o644)
            return identity
        }

        /// Writes `text` to a temporary file with `mode` beside `file`, then renames it over
        /// `file`.
        private static func writeReplacing(_ file: URL, _ text: String, mode: mode_t) throws {
            let temporary = file.deletingLastPathComponent().appendingPathComponent(
                ".\(file.lastPathComponent).\(UUID().uuidString)")
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, mode)
            guard descriptor >= 0 else {
                throw QuireError.posix(errno, "cannot write \(temporary.path)")
            }
            let bytes = Array(text.utf8)
            let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            let synced = fsync(descriptor)
            close(descriptor)
            guard written == bytes.count, synced == 0, rename(temporary.path, file.path) == 0 else {
                let code = errno
                unlink(temporary.path)
                throw QuireError.posix(code, "cannot write \(file.path)")
            }
        }
    }
#endif
