import Foundation

extension Database {
    /// Runs `body` as one transaction over every collection: other connections see all of its
    /// changes or none; an error thrown inside rolls every change back and is rethrown.
    public func inBatch(using body: () throws -> Void) throws {
        try write { _ in try body() }
    }

    /// The folder of this database's blob files.
    var blobStore: BlobStore {
        let directory = folder.map { $0 + "/Attachments" } ?? (core.path + "-attachments")
        return BlobStore(directory: URL(fileURLWithPath: directory, isDirectory: true))
    }
}
