import Foundation

/// WCDB's Swift spellings of the handle API, so code written for WCDB ports without edits.
/// Each is the same as its Quire name.
extension Database {
    /// WCDB's spelling of ``init(path:)``.
    public convenience init(withPath path: String) {
        self.init(path: path)
    }

    /// WCDB's spelling of ``init(fileURL:)``.
    public convenience init(withFileURL fileURL: URL) {
        self.init(path: fileURL.path)
    }

    /// WCDB's spelling of ``init(tag:)``.
    ///
    /// - Throws: ``QuireError/Code/notFound`` when no open database carries `tag`.
    public convenience init(with tag: Int) throws {
        try self.init(tag: tag)
    }

    /// WCDB's spelling of ``purgeFreeHandlesInAllDatabases()``.
    public static func purgeFreeHandlesInAllDatabase() {
        purgeFreeHandlesInAllDatabases()
    }
}
