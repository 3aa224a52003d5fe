import Foundation

/// The spec files found under some paths, loaded and expanded, in a deterministic order:
/// files sorted by path, cases in file order, vector rows in row order.
///
/// This is also the entry point for a parameterized test:
///
/// ```swift
/// @Test(arguments: ConformanceSuite.load(paths: ["Specs"]).cases)
/// func spec(_ testCase: ConformanceCase) {
///     let result = runner.run(testCase)
///     #expect(result.status != .failed && result.status != .error, "\(result.summary)")
/// }
/// ```
public struct ConformanceSuite: Sendable {
    /// The files, sorted by path (including files that could not be read).
    package let files: [SpecFile]

    /// Every expanded case of every file, in order; unreadable files and cases appear as
    /// stand-ins whose run reports the spec error.
    public var cases: [ConformanceCase] { files.flatMap(\.cases) }

    /// Makes a suite from files already loaded.
    package init(files: [SpecFile]) {
        self.files = files
    }

    /// Finds and loads the spec files under `paths`.
    ///
    /// - Parameters:
    ///   - paths: files (any name) and directories (searched recursively for `.yaml` and
    ///     `.yml` files, hidden ones skipped).
    ///   - seed: feeds the vector generators.
    /// - Returns: the suite; a path that does not exist becomes a file with an error.
    public static func load(paths: [String], seed: UInt64 = 0) -> ConformanceSuite {
        let (found, missing) = discover(paths: paths)
        var files = missing.map { path in
            let error = SpecError("no such file or directory", at: SourceLocation(file: path, line: 0, column: 0))
            return SpecFile(
                path: path, about: nil, tags: [],
                cases: [
                    ConformanceCase(
                        file: path, name: SpecFile.invalidFileCaseName, baseName: SpecFile.invalidFileCaseName,
                        tags: [],
                        location: error.location, bindings: [], content: .invalid([error]))
                ], errors: [error])
        }
        files += found.map { SpecLoader.load(path: $0, seed: seed) }
        return ConformanceSuite(files: files.sorted { $0.path < $1.path })
    }

    /// Parses one spec from text; handy for tests and tools.
    ///
    /// - Parameters:
    ///   - text: the YAML.
    ///   - path: the name used in locations and case ids.
    ///   - directory: where relative paths in the spec (fixtures) resolve.
    ///   - seed: the seed of generated data (vectors, generated documents).
    public static func parse(_ text: String, path: String, directory: URL? = nil, seed: UInt64 = 0) -> SpecFile {
        let base = directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return SpecLoader.parse(text: text, path: path, specDirectory: base, seed: seed)
    }

    /// The spec files under `paths`, sorted and without duplicates, and the paths that do not exist.
    static func discover(paths: [String]) -> (found: [String], missing: [String]) {
        let manager = FileManager.default
        var found = Set<String>()
        var missing: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                missing.append(path)
                continue
            }
            guard isDirectory.boolValue else {
                found.insert(path)
                continue
            }
            let root = URL(fileURLWithPath: path)
            guard
                let walker = manager.enumerator(
                    at: root, includingPropertiesForKeys: [.isRegularFileKey],
                    options: [.skipsHiddenFiles])
            else { continue }
            let prefix = path.hasSuffix("/") ? String(path.dropLast()) : path
            let rootPath = root.standardizedFileURL.path
            for case let url as URL in walker where ["yaml", "yml"].contains(url.pathExtension) {
                let full = url.standardizedFileURL.path
                let relative =
                    full.hasPrefix(rootPath + "/") ? String(full.dropFirst(rootPath.count + 1)) : url.lastPathComponent
                found.insert(prefix == "." ? relative : "\(prefix)/\(relative)")
            }
        }
        return (found.sorted(), missing)
    }
}
