// swift-tools-version: 6.1
// libFuzzer targets for Quire. They only link with `-sanitize=fuzzer`, which is why they live
// in their own package: the root package's `swift test` builds every root target and would
// fail on them. Build and run them with `Tests/Fuzz/run` (see Tests/Fuzz/README.md).
import PackageDescription

let package = Package(
    name: "QuireFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Without the `TLS` trait: no fuzz target reaches TLS, and BoringSSL costs build time.
        .package(name: "Quire", path: "../..", traits: [])
    ],
    targets: [
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "fuzz-json",
            dependencies: ["FuzzDriver", .product(name: "Quire", package: "Quire")]
        ),
        .executableTarget(
            name: "fuzz-spec",
            dependencies: ["FuzzDriver", .product(name: "QuireConformance", package: "Quire")]
        ),
        .executableTarget(
            name: "fuzz-query",
            dependencies: ["FuzzDriver", .product(name: "Quire", package: "Quire")]
        ),
        .executableTarget(
            name: "fuzz-listener",
            dependencies: [
                "FuzzDriver",
                .product(name: "Quire", package: "Quire"),
                .product(name: "QuireSync", package: "Quire"),
                .product(name: "QuireListener", package: "Quire"),
            ]
        ),
        .executableTarget(
            name: "fuzz-archive",
            dependencies: [
                "FuzzDriver",
                .product(name: "Quire", package: "Quire"),
                .product(name: "QuireFixtures", package: "Quire"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
