#if TLS
    import Foundation
    import Quire
    import QuireFixturesTestSupport
    import QuireSync
    import QuireTestSupport
    import Testing

    /// `quire serve --tls-self-signed`: it prints the certificate's fingerprint, and a
    /// replicator pinning that fingerprint pulls over HTTPS.
    @Suite(.serialized, .offCooperativePool) struct ServeTLSCommandTests {
        @Test func aSelfSignedServerPrintsItsFingerprintAndServesHTTPS() async throws {
            let quire = try #require(FixtureCommandTests.quireURL, "the quire executable is built beside the tests")
            let scratch = try ScratchFolder()
            defer { scratch.cleanUp() }
            let directory = try scratch.folder("data")
            do {
                let database = try Database(name: "secure", config: DatabaseConfiguration(directory: directory.path))
                try database.defaultCollection().save(document: MutableDocument(id: "doc", data: ["n": 1]))
                try database.close()
            }
            let server = try ServedProcess(
                quire,
                ["serve", directory.appendingPathComponent("secure.quire").path, "--port", "0", "--tls-self-signed"])
            defer { server.kill() }
            let url = try server.waitForURL()
            #expect(url.scheme == "https")
            let prefix = "TLS certificate SHA-256 fingerprint: "
            let line = try #require(server.output.split(separator: "\n").first { $0.hasPrefix(prefix) })
            let fingerprint = String(line.dropFirst(prefix.count))
            #expect(fingerprint.count == 32 * 3 - 1)

            let local = try Database(name: "local", config: DatabaseConfiguration(directory: directory.path))
            defer { try? local.close() }
            var config = ReplicatorConfiguration(target: URLEndpoint(url: url))
            config.replicatorType = .pull
            config.pinnedServerCertificateSHA256 = fingerprint
            config.addCollection(try local.defaultCollection())
            let replicator = Replicator(config: config)
            replicator.start()
            // Generous: on a loaded machine an attempt can fail and be retried (1, 2, 4 … s).
            let deadline = Date().addingTimeInterval(150)
            while replicator.status.activity != .stopped, Date() < deadline {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(
                replicator.status.activity == .stopped,
                "still \(replicator.status.activity), last error: \(String(describing: replicator.status.error))")
            #expect(replicator.status.error == nil)
            #expect(try local.defaultCollection().document(id: "doc")?.int(forKey: "n") == 1)
            #expect(server.terminate() == 0)
            #expect(!server.output.contains("warning"), "\(server.output)")

            // Kept in .quire-tls beside the databases, the key readable by its owner only, and
            // served again after a restart, so the pinned fingerprint still holds.
            let kept = directory.appendingPathComponent(".quire-tls")
            let key = kept.appendingPathComponent("quire-tls-key.pem")
            let certificate = kept.appendingPathComponent("quire-tls-certificate.pem")
            let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            #expect(
                try restartedFingerprint(quire, [directory.appendingPathComponent("secure.quire").path]) == fingerprint)
            // Serving the folder keeps the same place.
            #expect(try restartedFingerprint(quire, [directory.path]) == fingerprint)

            // The same files given as --tls-cert and --tls-key, the key made readable by everyone:
            // served, with a warning naming the key.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: key.path)
            let exposed = try ServedProcess(
                quire,
                [
                    "serve", directory.appendingPathComponent("secure.quire").path, "--port", "0", "--tls-cert",
                    certificate.path, "--tls-key", key.path,
                ])
            defer { exposed.kill() }
            _ = try exposed.waitForURL()
            #expect(exposed.terminate() == 0)
            #expect(
                exposed.output.contains("warning: the TLS private key \(key.path) can be read by every user"),
                "\(exposed.output)")

            // Another --tls-identity-dir is another identity, kept there.
            let elsewhere = try scratch.folder("identity")
            let other = try restartedFingerprint(
                quire, [directory.path, "--tls-identity-dir", elsewhere.path])
            #expect(other != fingerprint)
            #expect(try restartedFingerprint(quire, [directory.path, "--tls-identity-dir", elsewhere.path]) == other)
            let alone = try ServedProcess(
                quire, ["serve", directory.path, "--port", "0", "--tls-identity-dir", elsewhere.path])
            defer { alone.kill() }
            #expect(alone.terminate(signal: nil) != 0)
            #expect(alone.output.contains("--tls-identity-dir goes with --tls-self-signed"), "\(alone.output)")
        }

        /// Serves with `--tls-self-signed` and `arguments`, and returns the fingerprint printed.
        private func restartedFingerprint(_ quire: URL, _ arguments: [String]) throws -> String? {
            let server = try ServedProcess(quire, ["serve"] + arguments + ["--port", "0", "--tls-self-signed"])
            defer { server.kill() }
            _ = try server.waitForURL()
            let prefix = "TLS certificate SHA-256 fingerprint: "
            let deadline = Date().addingTimeInterval(30)
            while !server.output.contains(prefix), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            #expect(server.terminate() == 0)
            return server.output.split(separator: "\n").first { $0.hasPrefix(prefix) }.map {
                String($0.dropFirst(prefix.count))
            }
        }
    }
#endif
