import ArgumentParser
import Foundation
import QuireListener
import QuireSync

extension ServeCommand {
    #if TLS
        /// Checks the TLS options go together.
        func validateTLS() throws {
            if (tlsCert == nil) != (tlsKey == nil) {
                throw ValidationError("--tls-cert and --tls-key go together.")
            }
            if tlsSelfSigned, tlsCert != nil {
                throw ValidationError("--tls-self-signed and --tls-cert are alternatives: give one.")
            }
            if tlsIdentityDir != nil, !tlsSelfSigned {
                throw ValidationError("--tls-identity-dir goes with --tls-self-signed.")
            }
        }
    #endif

    /// Turns TLS on in `config` when the options ask for it, loading the certificate and key,
    /// or the self-signed identity kept in `--tls-identity-dir` (default `.quire-tls` in
    /// `folder`, the folder holding the databases), made there on the first start.
    func applyTLS(to config: inout URLEndpointListenerConfiguration, folder: URL) throws {
        #if TLS
            if let tlsCert, let tlsKey {
                config.disableTLS = false
                ServeCommand.warnIfExposed(tlsKey, what: "TLS private key")
                config.tlsIdentity = try TLSIdentity(
                    certificateFile: URL(fileURLWithPath: tlsCert), privateKeyFile: URL(fileURLWithPath: tlsKey))
            } else if tlsSelfSigned {
                config.disableTLS = false
                let directory =
                    tlsIdentityDir.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent(".quire-tls")
                config.tlsIdentity = try TLSIdentity.selfSigned(storedIn: directory)
                ServeCommand.warnIfExposed(
                    directory.appendingPathComponent(TLSIdentity.storedPrivateKeyName).path, what: "TLS private key")
            }
        #endif
    }

    /// The line naming the certificate's fingerprint when `listener` serves HTTPS, else "".
    static func tlsAnnouncement(_ listener: URLEndpointListener) -> String {
        #if TLS
            if let identity = listener.tlsIdentity {
                return "TLS certificate SHA-256 fingerprint: \(identity.sha256Fingerprint)\n"
            }
        #endif
        return ""
    }
}
