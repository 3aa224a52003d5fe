import Foundation
import Testing

@testable import Quire

/// WCDB's spellings of the handle API reach the same cores as Quire's names.
@Suite struct DatabaseWCDBSpellingsTests {
    @Test func wcdbSpellingsShareTheCoreTheirQuireNamesReach() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("wcdb.db")
        let byPath = Database(withPath: path)
        let byURL = Database(withFileURL: URL(fileURLWithPath: path))
        #expect(byPath.core === Database(path: path).core)
        #expect(byURL.core === byPath.core)
        let tag = Int.random(in: 1_000_000...9_000_000)
        byPath.tag = tag
        #expect(try Database(with: tag).core === byPath.core)
        let unknown = #expect(throws: QuireError.self) { try Database(with: -tag) }
        #expect(unknown?.code == .notFound)
        try byPath.write { try $0.execute("CREATE TABLE t (x)") }
        #expect(byPath.isOpened)
        Database.purgeFreeHandlesInAllDatabase()
        try byURL.read { _ = try $0.scalarInt("SELECT count(*) FROM t") }
    }
}
