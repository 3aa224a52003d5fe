// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Quire",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Quire", targets: ["Quire"]),
        .library(name: "QuireSync", targets: ["QuireSync"]),
        .library(name: "QuireConformance", targets: ["QuireConformance"]),
        .library(name: "QuireFixtures", targets: ["QuireFixtures"]),
        .executable(name: "quire", targets: ["quire"]),
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
        // Snowball stemmers (Debian's libstemmer-dev) as an FTS5 tokenizer.
        .target(
            name: "CQuireSnowball",
            linkerSettings: [.linkedLibrary("stemmer"), .linkedLibrary("sqlite3")]
        ),
        .target(
            name: "Quire",
            dependencies: [
                "CSQLite", "CQuireSnowball",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "QuireSync",
            dependencies: [
                "Quire",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(
            name: "QuireFixtures",
            dependencies: [
                "Quire",
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
                "QuireSync",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .executableTarget(
            name: "quire",
            dependencies: [
                "Quire",
                "QuireConformance",
                "QuireFixtures",
                "QuireSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "quire-test-helper",
            dependencies: ["Quire", "QuireSync"],
            path: "Sources/quire-test-helper"
        ),
        .testTarget(name: "QuireTests", dependencies: ["Quire", "quire-test-helper"]),
        .testTarget(name: "QuireSyncTests", dependencies: ["QuireSync", "Quire", "quire-test-helper"]),
        .testTarget(
            name: "QuireFixturesTests",
            dependencies: ["QuireFixtures", "Quire", "QuireSync", "CArchive", "quire"]
        ),
        .testTarget(
            name: "QuireConformanceTests",
            dependencies: ["QuireConformance", "Quire"],
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
