import Foundation
import Quire
import QuireTestSupport
import Testing

#if TLS
    import Crypto
    import SwiftASN1
    import X509
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// `quire db push` and `pull` as people run them: live (`--continuous`, both ways with
/// `--bidi`, stopped with Ctrl-C with the checkpoint kept), with credentials in the URL that
/// never reach the output, against a self-signed HTTPS server (`--pinned-cert`, `--insecure`),
/// and `db put` refusing CouchDB's inline attachments.
@Suite(.offCooperativePool) struct DbLiveReplicationTests {
    static func runner(_ scratch: DbScratchFolder) throws -> DbCommandRunner {
        DbCommandRunner(
            executable: try #require(DbCommandRunner.quireURL, "the quire executable is built beside the tests"),
            directory: scratch.url)
    }

    /// Starts `quire serve` with `extra` options on a new database `name` and returns it
    /// with the URL it printed.
    static func serve(_ quire: DbCommandRunner, _ name: String, _ extra: [String] = []) throws -> (
        DbBackgroundCommand, String
    ) {
        _ = try quire.succeed(["db", "create", "server/\(name).quire"])
        let process = try quire.start(["serve", "server/\(name).quire", "--port", "0"] + extra)
        let url = String(try process.waitForLine(startingWith: "Serving ").dropFirst("Serving ".count))
        return (process, url)
    }

    /// Polls (every 50 ms, at most 30 s) until `quire db cat DATABASE ID` finds the document.
    static func waitForDocument(_ quire: DbCommandRunner, _ database: String, _ id: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try quire.run(["db", "cat", database, id]).status == 0 { return true }
            usleep(50_000)
        }
        return false
    }

    @Test func aContinuousBidirectionalReplicationRunsUntilCtrlCAndKeepsItsCheckpoint() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = try Self.runner(scratch)
        let (server, url) = try Self.serve(quire, "live")
        defer { server.stop() }
        _ = try quire.succeed(["db", "create", "local"])
        _ = try quire.succeed(["db", "put", "local", "a", #"{"from":"local"}"#])

        let live = try quire.start(["db", "pull", "local", url, "--continuous", "--bidi"])
        _ = try live.waitForLine(startingWith: "Replicating continuously with \(url)")
        // Another client pushes a document to the server while the replication runs.
        _ = try quire.succeed(["db", "create", "other"])
        _ = try quire.succeed(["db", "put", "other", "b", #"{"from":"other"}"#])
        _ = try quire.succeed(["db", "push", "other", url])
        #expect(try Self.waitForDocument(quire, "local", "b"), "the live pull brought b")
        // The local document went to the server: a fresh pull elsewhere finds it.
        _ = try quire.succeed(["db", "pull", "other", url])
        #expect(try quire.run(["db", "cat", "other", "a"]).status == 0, "the live push sent a")

        let ended = try #require(live.finish(with: SIGINT))
        #expect(ended.status == 0, "\(ended.output)")
        #expect(ended.output.contains("Pushed 1 and pulled 1 documents with \(url) in "), "\(ended.output)")
        // The checkpoint was kept: the same replication again moves nothing.
        let again = try quire.succeed(["db", "pull", "local", url, "--bidi"])
        #expect(again.hasPrefix("Pushed 0 and pulled 0 documents with \(url) in "), "\(again)")
        let json = try JSONReader.parse(try quire.succeed(["db", "push", "local", url, "--bidi", "--json"]))
        #expect(json["direction"] == "pushAndPull" && json["pushed"] == 0 && json["pulled"] == 0, "\(json)")
        // Even a replication with nothing to move exchanges a few requests' bodies.
        #expect((json["bytes"]?.int64Value ?? 0) > 0, "\(json)")
        #expect(
            ended.output.contains(" s, ") && ended.output.contains("B\n"),
            "the summary gives the bytes: \(ended.output)")
    }

    @Test func credentialsInTheURLAuthenticateAndNeverReachTheOutput() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = try Self.runner(scratch)
        _ = try scratch.write("s3cret-pass\n", to: "password")
        let (server, url) = try Self.serve(quire, "guarded", ["--user", "ada", "--password-file", "password"])
        defer { server.stop() }
        _ = try quire.succeed(["db", "create", "local"])
        _ = try quire.succeed(["db", "put", "local", "a", #"{"n":1}"#])
        let withCredentials = url.replacingOccurrences(of: "://", with: "://ada:s3cret-pass@")

        let pushed = try quire.run(["db", "push", "local", withCredentials])
        #expect(pushed.status == 0, "\(pushed.errors)")
        #expect(pushed.output.hasPrefix("Pushed 1 documents to http://ada:***@"), "\(pushed.output)")
        #expect(!(pushed.output + pushed.errors).contains("s3cret"))

        let wrong = try quire.run([
            "db", "push", "local", url.replacingOccurrences(of: "://", with: "://ada:wrong-pass@"),
        ])
        #expect(wrong.status == 1)
        #expect(!(wrong.output + wrong.errors).contains("wrong-pass"), "\(wrong.errors)")
        let both = try quire.run([
            "db", "push", "local", withCredentials, "--user", "ada", "--password-file", "password",
        ])
        #expect(both.status == 64 && both.errors.contains("not both"), "\(both.errors)")
        #expect(!both.errors.contains("s3cret"))
    }

    @Test func aPushCreatesTheMissingDatabaseAndKeyspacesOfAFolderWhenAsked() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = try Self.runner(scratch)
        try FileManager.default.createDirectory(
            at: scratch.url.appendingPathComponent("served"), withIntermediateDirectories: true)
        let server = try quire.start(["serve", "served", "--port", "0", "--create-databases"])
        defer { server.stop() }
        let root = String(try server.waitForLine(startingWith: "Serving ").dropFirst("Serving ".count))
        let url = (root.hasSuffix("/") ? root : root + "/") + "shop"
        _ = try quire.succeed(["db", "create", "shop", "-c", "store.products"])
        _ = try quire.succeed(["db", "put", "shop", "p1", #"{"n":1}"#, "-c", "store.products"])
        _ = try quire.succeed(["db", "put", "shop", "d1", #"{"n":2}"#])

        let refused = try quire.run(["db", "push", "shop", url])
        #expect(refused.status == 1 && refused.errors.contains("404"), "\(refused.errors)")
        let pushed = try quire.run(["db", "push", "shop", url, "--create-target"])
        #expect(pushed.status == 0 && pushed.output.hasPrefix("Pushed 2 documents"), "\(pushed.output)\(pushed.errors)")
        // The folder now holds shop with both collections and their documents.
        let listed = try quire.succeed(["db", "ls", "served/shop.quire", "-c", "store.products", "--json"])
        #expect(try JSONReader.parse(String(listed.split(separator: "\n").first ?? ""))["id"] == "p1")
        #expect(try quire.run(["db", "cat", "served/shop.quire", "d1"]).status == 0)
    }

    @Test func insideAttachmentsArePutRefusedWithTheWayBlobsComeIn() throws {
        let scratch = try DbScratchFolder()
        defer { scratch.cleanUp() }
        let quire = try Self.runner(scratch)
        _ = try quire.succeed(["db", "create", "local"])
        let body = #"{"name":"x","_attachments":{"a.txt":{"content_type":"text/plain","data":"aGk="}}}"#
        let refused = try quire.run(["db", "put", "local", "x", body])
        #expect(refused.status == 1)
        #expect(
            refused.errors.contains("_attachments") && refused.errors.contains("quire db import"), "\(refused.errors)")
        #expect(try quire.run(["db", "cat", "local", "x"]).status != 0, "nothing was stored")
    }

    #if TLS
        @Test func aSelfSignedServerIsReachedWithAPinOrInsecureAndRefusedOtherwise() throws {
            let scratch = try DbScratchFolder()
            defer { scratch.cleanUp() }
            let quire = try Self.runner(scratch)
            let (server, url) = try Self.serve(quire, "secure", ["--tls-self-signed"])
            defer { server.stop() }
            let prefix = "TLS certificate SHA-256 fingerprint: "
            let fingerprint = String(try server.waitForLine(startingWith: prefix).dropFirst(prefix.count))
            _ = try quire.succeed(["db", "create", "local"])
            _ = try quire.succeed(["db", "put", "local", "a", #"{"n":1}"#])

            let unpinned = try quire.run(["db", "push", "local", url, "--timeout", "10"])
            #expect(unpinned.status == 1)
            #expect(unpinned.errors.contains("certificate"), "\(unpinned.errors)")
            #expect(!unpinned.errors.contains(".build") && !unpinned.errors.contains(".swift"), "\(unpinned.errors)")

            let pinned = try quire.run(["db", "push", "local", url, "--pinned-cert", fingerprint])
            #expect(pinned.status == 0 && pinned.output.hasPrefix("Pushed 1 documents"), "\(pinned.errors)")
            let insecure = try quire.run(["db", "pull", "local", url, "--insecure", "--reset"])
            #expect(insecure.status == 0, "\(insecure.errors)")

            let wrongPin = try quire.run([
                "db", "push", "local", url, "--pinned-cert", String(repeating: "ab", count: 32),
            ])
            #expect(wrongPin.status == 1 && wrongPin.errors.contains("does not match the pinned"), "\(wrongPin.errors)")
            let mixed = try quire.run(["db", "push", "local", url, "--insecure", "--pinned-cert", fingerprint])
            #expect(mixed.status == 64 && mixed.errors.contains("exclude each other"), "\(mixed.errors)")
            let plain = try quire.run([
                "db", "push", "local", url.replacingOccurrences(of: "https:", with: "http:"), "--insecure",
            ])
            #expect(plain.status == 64 && plain.errors.contains("for an https URL"), "\(plain.errors)")
            let missing = try quire.run(["db", "push", "local", url, "--ca", "no-such.pem"])
            #expect(missing.status == 64 && missing.errors.contains("no-such.pem"), "\(missing.errors)")
        }

        /// A self-issued certificate for 127.0.0.1 that can be its own trust anchor (no
        /// basic constraints that forbid it, unlike a server's self-signed identity), and its key.
        static func rootPEM(commonName: String) throws -> (certificate: String, key: String) {
            let key = P256.Signing.PrivateKey()
            let name = try DistinguishedName { CommonName(commonName) }
            let certificate = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
                notValidBefore: Date().addingTimeInterval(-60), notValidAfter: Date().addingTimeInterval(3600),
                issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                },
                issuerPrivateKey: .init(key))
            return (try certificate.serializeAsPEM().pemString, key.pemRepresentation)
        }

        @Test func aServerCertificateIsTrustedThroughCAOrPinnedAsAFile() throws {
            let scratch = try DbScratchFolder()
            defer { scratch.cleanUp() }
            let quire = try Self.runner(scratch)
            // A certificate for 127.0.0.1 that is its own root, in PEM files.
            let (certificate, key) = try Self.rootPEM(commonName: "Quire test")
            _ = try scratch.write(certificate, to: "cert.pem")
            _ = try scratch.write(key, to: "key.pem")
            let (server, url) = try Self.serve(quire, "rooted", ["--tls-cert", "cert.pem", "--tls-key", "key.pem"])
            defer { server.stop() }
            _ = try quire.succeed(["db", "create", "local"])
            _ = try quire.succeed(["db", "put", "local", "a", #"{"n":1}"#])

            let trusted = try quire.run(["db", "push", "local", url, "--ca", "cert.pem"])
            #expect(trusted.status == 0 && trusted.output.hasPrefix("Pushed 1 documents"), "\(trusted.errors)")
            let pinned = try quire.run(["db", "pull", "local", url, "--pinned-cert", "cert.pem", "--reset"])
            #expect(pinned.status == 0, "\(pinned.errors)")
            // Another root does not vouch for it.
            let (other, _) = try Self.rootPEM(commonName: "Other")
            _ = try scratch.write(other, to: "other.pem")
            let refused = try quire.run(["db", "push", "local", url, "--ca", "other.pem", "--timeout", "10"])
            #expect(refused.status == 1 && refused.errors.contains("not trusted"), "\(refused.errors)")
        }
    #endif
}
