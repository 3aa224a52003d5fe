import Foundation

extension Database {
    /// Runs `body` as one transaction over every collection: other connections see all of its
    /// changes or none; an error thrown inside rolls every change back and is rethrown.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when the database is closed; SQLite failures in the
    ///   `.sqlite` domain; and whatever `body` throws, after every change was rolled back.
    public func inBatch(using body: () throws -> Void) throws {
        try write { _ in try body() }
    }
}
