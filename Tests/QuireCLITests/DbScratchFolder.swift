import Foundation

/// A fresh folder under the system temporary folder for one `quire db` test, removed by `cleanUp()`.
struct DbScratchFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quire-cli-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func write(_ text: String, to name: String) throws -> URL {
        let target = file(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
        return target
    }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}
