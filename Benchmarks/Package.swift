// swift-tools-version: 6.1
import PackageDescription

// A path dependency is known by its folder's name, not by its manifest's name, so the root
// package is "Quire" in a clone named Quire and, say, "wt-bench" in a worktree named so.
let quire = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "Quire")

let package = Package(
    name: "QuireBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Without the TLS trait: the benchmarks use no TLS, and BoringSSL would double the build.
        .package(path: "..", traits: []),
        // Only the MallocInterposer trait: the default set also holds RuntimeInterposer,
        // whose package (ordo-one/swift-runtime-interposer) is not in every mirror and only
        // adds ARC counters, which these benchmarks do not use.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        // swift-crypto's digests, the other side of the digest benchmarks.
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The platform's libsqlite3 for the raw C API baseline (the same library Quire and
        // GRDB's DatabaseQueue link against).
        .systemLibrary(
            name: "CSQLiteBaseline",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // What the benchmarks and the results page agree on: workload and engine names, targets.
        .target(name: "BenchmarkCatalog"),
        // The workloads, written once per engine, with no dependency on the benchmark harness,
        // so they can also run under valgrind or a debugger through `bench-probe`.
        .target(
            name: "BenchmarkWorkloads",
            dependencies: [
                "BenchmarkCatalog",
                "CSQLiteBaseline",
                .product(name: "Quire", package: quire),
                .product(name: "QuireFixtures", package: quire),
                .product(name: "QuireFixtureBuilder", package: quire),
                .product(name: "QuireConformance", package: quire),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .executableTarget(
            name: "QuireBenchmarks",
            dependencies: [
                "BenchmarkCatalog",
                "BenchmarkWorkloads",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/QuireBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Hand-written digests against swift-crypto's: raw throughput and batch saves (Quire only,
        // so it builds without the other engines).
        .executableTarget(
            name: "DigestBenchmarks",
            dependencies: [
                .product(name: "Quire", package: quire),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/DigestBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Runs one workload outside the harness, for profiling (`valgrind --tool=callgrind`).
        .executableTarget(
            name: "bench-probe",
            dependencies: ["BenchmarkCatalog", "BenchmarkWorkloads"]
        ),
        // Sums callgrind profiles by function group for the results page (`profile.sh`).
        .executableTarget(
            name: "profile-summary",
            dependencies: ["BenchmarkCatalog"]
        ),
        // Turns the harness's JMH export into RESULTS.md and ratios.svg.
        .executableTarget(
            name: "results-page",
            dependencies: ["BenchmarkCatalog"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
