import Foundation

extension Database {
    /// Runs `body` as one transaction over every collection: other connections see all of its
    /// changes or none; an error thrown inside rolls every change back and is rethrown.
    public func inBatch(using body: () throws -> Void) throws {
        try write { _ in try body() }
    }
}
