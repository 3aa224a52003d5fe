import Foundation
import Quire

/// Where a database file is, in one canonical spelling (symbolic links resolved, `.` and
/// `..` removed), so that the path recorded in a checkpoint compares equal however the
/// database was opened.
enum DatabaseLocation {
    static func path(of database: Database) -> String {
        URL(fileURLWithPath: database.filePath).resolvingSymlinksInPath().standardizedFileURL.path
    }
}
