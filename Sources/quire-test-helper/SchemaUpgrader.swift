import Foundation
import Quire

/// Opens the database `NAME` in `DIRECTORY`, which upgrades an older file in place, printing
/// `opening` before and `upgraded` after; the upgrade tests kill it in between.
enum SchemaUpgrader {
    static func run(_ arguments: [String]) {
        guard arguments.count == 2 else {
            TestHelper.fail("usage: quire-test-helper upgrade DIRECTORY NAME", status: 2)
        }
        FileHandle.standardOutput.write(Data("opening\n".utf8))
        do {
            let database = try Database(name: arguments[1], config: DatabaseConfiguration(directory: arguments[0]))
            FileHandle.standardOutput.write(Data("upgraded\n".utf8))
            try database.close()
        } catch {
            TestHelper.fail("\(error)")
        }
    }
}
