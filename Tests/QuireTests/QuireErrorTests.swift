import Foundation
import Testing

@testable import Quire

@Suite struct QuireErrorTests {
    @Test func codesFollowCouchbaseLiteNumbers() {
        #expect(QuireError.Code.corruptRevisionData.rawValue == 5)
        #expect(QuireError.Code.notOpen.rawValue == 6)
        #expect(QuireError.Code.notFound.rawValue == 7)
        #expect(QuireError.Code.invalidParameter.rawValue == 9)
        #expect(QuireError.Code.busy.rawValue == 16)
        #expect(QuireError.Code.invalidQuery.rawValue == 23)
        #expect(QuireError.Code(name: "invalidParameter") == .invalidParameter)
        #expect(QuireError.Code(name: "nonsense") == nil)
    }

    @Test func posixErrorsKeepTheirNumber() {
        let error = QuireError.posix(EEXIST, "database exists at /x")
        #expect(error.domain == .posix)
        #expect(error.underlyingCode == EEXIST)
        #expect(error.errorCode == Int(EEXIST))
        #expect(error.description.contains("/x"))
    }
}
