import ArgumentParser
import Foundation
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
        }
    #endif

    /// Turns TLS on in `config` when the options ask for it, loading the certificate and key
    /// (a self-signed identity is made when the listener starts).
    func applyTLS(to config: inout URLEndpointListenerConfiguration) throws {
        #if TLS
            if let tlsCert, let tlsKey {
                config.disableTLS = false
                config.tlsIdentity = try TLSIdentity(
                    certificateFile: URL(fileURLWithPath: tlsCert), privateKeyFile: URL(fileURLWithPath: tlsKey))
            } else if tlsSelfSigned {
                config.disableTLS = false
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
