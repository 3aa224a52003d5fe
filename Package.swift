// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Quire",
    // As Couchbase Lite's Swift package names them (iOS and macOS); the versions are the
    // oldest the libraries' Swift concurrency and Foundation APIs need.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Quire", targets: ["Quire"]),
        .library(name: "QuireSync", targets: ["QuireSync"]),
        .library(name: "QuireListener", targets: ["QuireListener"]),
        .library(name: "QuireConformance", targets: ["QuireConformance"]),
        .library(name: "QuireFixtures", targets: ["QuireFixtures"]),
        .library(name: "QuireFixtureBuilder", targets: ["QuireFixtureBuilder"]),
        .executable(name: "quire", targets: ["quire"]),
    ],
    traits: [
        .default(enabledTraits: ["TLS", "Snowball"]),
        .trait(
            name: "TLS",
            description:
                "HTTPS for the listener and pinned or CA-checked HTTPS for the replicator (swift-nio-ssl, swift-certificates)"
        ),
        .trait(
            name: "Snowball",
            description:
                "Couchbase Lite's Snowball stemmers for full-text indexes in 15 languages (the system libstemmer, which no Apple SDK ships); without it English uses FTS5's porter stemmer and other stemmed languages are refused"
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // Already in the graph through Hummingbird; named so the listener can add its own
        // connection handlers (request-head timeout, closing after `Connection: close`).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // Digests (SHA-1 for revision IDs and blobs, SHA-256 for fixtures, MD5 for CouchDB's
        // attachment digests): BoringSSL's, with the processor's SHA instructions. Already in
        // the graph through swift-nio-extras; the range is the one its other users accept.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // The `TLS` trait: the listener's HTTPS and the replicator's certificate checks
        // (BoringSSL through NIOSSL), and the self-signed identity (X509 with P256 keys).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
        // Already in the graph through swift-certificates; named for the certificate's IP addresses.
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
        // Already in the graph through Hummingbird: the console log sink hands Quire's messages to
        // the app's swift-log backend (`LogSinks.console`).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        // zlib, for the listener's gzipped request bodies (libarchive needs it already).
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // Couchbase Lite's full-text relevance as an FTS5 function: SQLite only.
        .target(
            name: "CQuireFTS",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // Snowball stemmers (Debian's libstemmer-dev) as an FTS5 tokenizer: the `Snowball` trait.
        .target(
            name: "CQuireSnowball",
            dependencies: ["CQuireFTS"],
            linkerSettings: [.linkedLibrary("stemmer"), .linkedLibrary("sqlite3")]
        ),
        .target(
            name: "Quire",
            dependencies: [
                "CSQLite", "CQuireFTS",
                .target(name: "CQuireSnowball", condition: .when(traits: ["Snowball"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The replicator: URLSession, plus NIOSSL for the loopback forwarder that checks an
        // HTTPS peer's certificate Quire's way (the `TLS` trait). No HTTP server.
        .target(
            name: "QuireSync",
            dependencies: [
                "Quire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["TLS"])),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["TLS"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["TLS"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TLS"])),
            ]
        ),
        // The HTTP listener (Hummingbird): its own product, so an app that only replicates, and
        // the fixture builder, link no HTTP server. QuireSync for the wire formats it shares
        // with the replicator.
        .target(
            name: "QuireListener",
            dependencies: [
                "Quire", "QuireSync", "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["TLS"])),
                .product(name: "NIOTLS", package: "swift-nio", condition: .when(traits: ["TLS"])),
                .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["TLS"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TLS"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["TLS"])),
            ]
        ),
        // What an app needs to put a prebuilt database in place: no networking, no YAML.
        .target(
            name: "QuireFixtures",
            dependencies: ["Quire", "CArchive"]
        ),
        // Recipes, datasets and the archive writer behind `quire fixture build`; QuireSync for
        // recipes that pull from a remote database.
        .target(
            name: "QuireFixtureBuilder",
            dependencies: [
                "Quire",
                "QuireFixtures",
                "QuireSync",
                "CArchive",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "QuireConformance",
            dependencies: [
                "CSQLite",
                "Quire",
                "QuireFixtures",
                "QuireFixtureBuilder",
                "QuireSync",
                "QuireListener",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Quire as a Couchbase Lite test server (the test kit's REST API).
        .target(
            name: "QuireTestServer",
            dependencies: [
                "Quire",
                "QuireFixtureBuilder",
                "QuireSync",
                "QuireListener",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "quire",
            dependencies: [
                "Quire",
                "QuireConformance",
                "QuireFixtures",
                "QuireFixtureBuilder",
                "QuireSync",
                "QuireListener",
                "QuireTestServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // SIGINT and SIGTERM as an async sequence, for the long-running commands.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "quire-test-helper",
            dependencies: ["Quire", "QuireSync", "QuireListener"],
            path: "Sources/quire-test-helper"
        ),
        // Loopback listeners on raw sockets for the tests that play an HTTP peer.
        .target(name: "QuireTestSupport", dependencies: ["Quire"], path: "Tests/QuireTestSupport"),
        .testTarget(name: "QuireTests", dependencies: ["Quire", "quire-test-helper", "QuireTestSupport"]),
        .testTarget(
            name: "QuireSyncTests",
            dependencies: [
                "QuireSync", "QuireListener", "Quire", "quire-test-helper", "QuireTestSupport",
                // The TLS tests make certificates of their own.
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["TLS"])),
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TLS"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["TLS"])),
            ]
        ),
        // Helpers shared by the fixture and command-line tests (one process runs both, so one
        // lock serialises libarchive's use of `TZ` for all of them).
        .target(
            name: "QuireFixturesTestSupport",
            dependencies: ["Quire", "QuireFixtures", "QuireFixtureBuilder", "CArchive"],
            path: "Tests/QuireFixturesTestSupport"
        ),
        .testTarget(
            name: "QuireFixturesTests",
            dependencies: [
                "QuireFixtures", "QuireFixtureBuilder", "QuireFixturesTestSupport", "Quire", "QuireSync",
                "QuireListener", "CArchive", "QuireTestSupport",
            ]
        ),
        // The `quire` executable run as a child process.
        .testTarget(
            name: "QuireCLITests",
            dependencies: [
                "QuireFixtures", "QuireFixtureBuilder", "QuireFixturesTestSupport", "Quire", "QuireSync",
                "QuireListener", "QuireTestSupport", "quire",
                // Certificates for the TLS options of `quire db push` and `pull`.
                .product(name: "X509", package: "swift-certificates", condition: .when(traits: ["TLS"])),
                .product(name: "SwiftASN1", package: "swift-asn1", condition: .when(traits: ["TLS"])),
                .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["TLS"])),
            ]
        ),
        // An app that ships a prebuilt database: it imports the install side alone, and
        // `Tests/Scripts/install-only-dependencies` checks that nothing here reaches
        // Hummingbird, NIO or the replicator.
        .testTarget(
            name: "QuireInstallOnlyTests",
            dependencies: ["QuireFixtures", "Quire"]
        ),
        .testTarget(
            name: "QuireConformanceTests",
            dependencies: ["QuireConformance", "Quire", "QuireTestSupport"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "QuireTestServerTests",
            dependencies: [
                "QuireTestServer", "Quire", "QuireSync", "QuireListener", "QuireFixtures", "QuireFixtureBuilder",
                "QuireConformance",
            ],
            resources: [.copy("Resources")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin only when documentation is being built, so ordinary builds never resolve it:
//   QUIRE_DOCC=1 swift package generate-documentation --target Quire
if Context.environment["QUIRE_DOCC"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
