// The targets and products a target of this package depends on, directly or not, read from
// `swift package describe --type json`; exits 1 when any of them is outside what an app that
// installs prebuilt databases may link. Run by `install-only-dependencies`.
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let data = FileManager.default.contents(atPath: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: DependencyClosure.swift <describe.json> <target>\n".utf8))
    exit(2)
}
let root = arguments[2]
// Everything the install side may reach: the library, the install module, the C libraries
// they wrap, and swift-crypto (the store's SHA-1 and SHA-256; it brings no networking).
let allowed: Set<String> = ["Quire", "QuireFixtures", "CSQLite", "CArchive", "CQuireFTS", "CQuireSnowball"]
let allowedProducts: Set<String> = ["Crypto"]

guard let package = try JSONSerialization.jsonObject(with: data) as? [String: Any],
    let targets = package["targets"] as? [[String: Any]]
else {
    FileHandle.standardError.write(Data("install-only: cannot read the package description\n".utf8))
    exit(2)
}
var byName: [String: [String: Any]] = [:]
for target in targets {
    if let name = target["name"] as? String { byName[name] = target }
}
guard byName[root] != nil else {
    FileHandle.standardError.write(Data("install-only: no target '\(root)' in the package\n".utf8))
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
    "install-only: \(root) reaches \((reached.sorted() + products.sorted().map { "product \($0)" }).joined(separator: ", "))"
)
if !refused.isEmpty {
    print("install-only: \(root) must not depend on \(refused.joined(separator: ", "))")
    exit(1)
}
print("install-only: no replicator, listener, Hummingbird, NIO or YAML")
