// The targets and products a target of this package depends on, directly or not, read from
// `swift package describe --type json`; exits 1 when any of them is outside what that target
// may link. Run by `install-only-dependencies` (an app that installs prebuilt databases) and
// `listener-free-dependencies` (an app that replicates, and the fixture builder).
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: DependencyClosure.swift <describe.json> <target>\n".utf8))
    exit(2)
}
let root = arguments[2]

/// What a checked target may reach, and what the check rules out, in words.
struct Allowance {
    var targets: Set<String>
    var products: Set<String>
    var rulesOut: String
}

// The C libraries the store wraps, swift-crypto (the store's SHA-1 and SHA-256; it brings
// no networking) and swift-log (the console log sink's backend) are allowed everywhere.
let store: Set<String> = ["Quire", "CSQLite", "CQuireFTS", "CQuireSnowball"]
let storeProducts: Set<String> = ["Crypto", "Logging"]
// NIO's TLS, for the replicator's loopback forwarder that checks an HTTPS peer's certificate
// Quire's way (the `TLS` trait), and swift-certificates' X509 for the pinned-chain and
// self-signed checks: a client, no HTTP server.
let replicatorTLS: Set<String> = ["NIOCore", "NIOPosix", "NIOTLS", "NIOSSL", "X509"]
let allowances: [String: Allowance] = [
    "QuireInstallOnlyTests": Allowance(
        targets: store.union(["QuireFixtures", "CArchive"]), products: storeProducts,
        rulesOut: "no replicator, listener, Hummingbird, NIO or YAML"),
    "QuireSync": Allowance(
        targets: store, products: replicatorTLS.union(storeProducts),
        rulesOut: "no listener, Hummingbird, HTTP server or service lifecycle"),
    "QuireFixtureBuilder": Allowance(
        targets: store.union(["QuireSync", "QuireFixtures", "CArchive"]),
        products: replicatorTLS.union(storeProducts).union(["Yams"]),
        rulesOut: "no listener, Hummingbird, HTTP server or service lifecycle"),
]
guard let allowance = allowances[root] else {
    FileHandle.standardError.write(Data("dependencies: no allowance for '\(root)'\n".utf8))
    exit(2)
}
let allowed = allowance.targets
let allowedProducts = allowance.products

guard let package = try JSONSerialization.jsonObject(with: data) as? [String: Any],
    let targets = package["targets"] as? [[String: Any]]
else {
    FileHandle.standardError.write(Data("dependencies: cannot read the package description\n".utf8))
    exit(2)
}
var byName: [String: [String: Any]] = [:]
for target in targets {
    if let name = target["name"] as? String { byName[name] = target }
}
guard byName[root] != nil else {
    FileHandle.standardError.write(Data("dependencies: no target '\(root)' in the package\n".utf8))
    exit(2)
}

var reached: Set<String> = []
var products: Set<String> = []
var pending = [root]
while let name = pending.popLast() {
    guard let target = byName[name] else { continue }
    for dependency in target["target_dependencies"] as? [String] ?? [] where reached.insert(dependency).inserted {
        pending.append(dependency)
    }
    for product in target["product_dependencies"] as? [String] ?? [] { products.insert(product) }
}

let refused =
    reached.subtracting(allowed).sorted() + products.subtracting(allowedProducts).sorted().map { "product \($0)" }
print(
    "dependencies: \(root) reaches \((reached.sorted() + products.sorted().map { "product \($0)" }).joined(separator: ", "))"
)
if !refused.isEmpty {
    print("dependencies: \(root) must not depend on \(refused.joined(separator: ", "))")
    exit(1)
}
print("dependencies: \(root): \(allowance.rulesOut)")
