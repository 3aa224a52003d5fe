import Foundation
import Quire
import QuireFixtureBuilder

/// Finds datasets and blob files in a local folder laid out as Couchbase's test kit lays out
/// `dataset/server/`, and loads a dataset into a new database.
///
/// A dataset named in `/reset` (a name such as `travel`, or the URL a test-kit client sends,
/// `https://.../dbs/4.0/travel.cblite2.zip`, of which only the name counts) is the folder
/// `<root>/<name>/` or `<root>/dbs/js/<name>/`, holding `index.json`, one `.jsonl` file per
/// collection and `Attachments/` (see `DatasetReader`). A blob named in `/updateDatabase`
/// (`https://.../blobs/s1.jpg`) is the file `<root>/blobs/<file>` or `<root>/<file>`.
struct DatasetCatalog: Sendable {
    /// The dataset root; nil when the server was started without one.
    let root: URL?

    /// The dataset's name in `reference`: its last path component without `.zip` and `.cblite2`.
    static func datasetName(_ reference: String) -> String {
        var name = reference.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? reference
        for suffix in [".zip", ".cblite2"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name
    }

    /// The folder of the dataset `reference` names.
    func datasetFolder(_ reference: String) throws -> URL {
        let name = Self.datasetName(reference)
        guard let root else {
            throw TestServerError.request(
                "dataset '\(name)' cannot be loaded: the server was started without --dataset-root")
        }
        guard !name.isEmpty, name != ".", name != "..", !name.contains("\\") else {
            throw TestServerError.request("'\(reference)' does not name a dataset")
        }
        let candidates = [root.appendingPathComponent(name), root.appendingPathComponent("dbs/js/\(name)")]
        guard
            let folder = candidates.first(where: {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent(DatasetIndex.fileName).path)
            })
        else {
            throw TestServerError.request(
                "unknown dataset '\(name)': neither \(candidates.map { $0.path + "/" }.joined(separator: " nor ")) holds an \(DatasetIndex.fileName)"
            )
        }
        return folder
    }

    /// Loads the dataset `reference` names into `database`: its collections, documents and blobs.
    func load(_ reference: String, into database: Database) throws {
        let reader: DatasetReader
        do {
            reader = try DatasetReader(folder: try datasetFolder(reference))
        } catch let error as QuireError {
            throw TestServerError.request("dataset '\(Self.datasetName(reference))': \(error.message)")
        }
        do {
            try DatasetImporter(database: database, batchSize: 500).importDataset(reader)
        } catch let error as QuireError where error.code == .corruptData {
            throw TestServerError.request("dataset '\(Self.datasetName(reference))': \(error.message)")
        }
    }

    /// A blob for `/updateDatabase`: the file the reference names, with the content type its
    /// extension gives (`image/jpeg` for `.jpg`, else `application/octet-stream`).
    func blob(_ reference: String) throws -> Blob {
        let file = reference.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? reference
        guard let root else {
            throw TestServerError.request(
                "blob '\(file)' cannot be read: the server was started without --dataset-root")
        }
        guard !file.isEmpty, file != ".", file != "..", !file.contains("\\") else {
            throw TestServerError.request("'\(reference)' does not name a blob file")
        }
        guard !file.lowercased().hasSuffix(".zip") else {
            throw TestServerError.request(
                "blob '\(file)': zipped blob files are not supported; unzip it into \(root.path)/blobs/")
        }
        let candidates = [root.appendingPathComponent("blobs/\(file)"), root.appendingPathComponent(file)]
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw TestServerError.request("blob file '\(file)' does not exist in \(root.path)/blobs/ or \(root.path)/")
        }
        let type = file.lowercased().hasSuffix(".jpg") ? "image/jpeg" : "application/octet-stream"
        do {
            return try Blob(contentType: type, fileURL: url)
        } catch let error as QuireError {
            throw TestServerError.request("blob file '\(file)': \(error.message)")
        }
    }
}
