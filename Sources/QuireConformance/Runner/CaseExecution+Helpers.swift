import Foundation
import Quire

// Errors, wording and values the other sections share.
extension CaseExecution {
    func specError(_ message: String, at location: SourceLocation, step: String?) -> Stop {
        Stop(status: .error, failure: CaseFailure(message: "spec error: \(message)", location: location, step: step))
    }

    static func engineError(_ error: any Error) -> EngineError {
        if let error = error as? EngineError { return error }
        return EngineError(domain: "Swift", code: String(describing: type(of: error)), message: "\(error)")
    }

    /// `value:` on a document compares its properties; `_meta` only when the spec lists it.
    static func withoutMeta(_ actual: SpecValue, unlessIn expected: SpecValue) -> SpecValue {
        guard case .object(var members) = actual, members[DocumentSnapshot.metaKey] != nil,
            expected[DocumentSnapshot.metaKey] == nil
        else { return actual }
        members[DocumentSnapshot.metaKey] = nil
        return .object(members)
    }

    static func describe(_ state: DocumentState) -> String {
        switch state {
        case .live(let snapshot): return "live (revision \(snapshot.revisionID))"
        case .deleted(let revisionID): return "a tombstone (revision \(revisionID))"
        case .absent: return "absent"
        }
    }

    /// The test kit's wording for each broken check.
    static func failureWording(_ check: Expectation.DocumentCheck) -> String {
        switch check {
        case .notFound: return "was found"
        case .deleted: return "was not deleted"
        case .notDeleted: return "was deleted or not found"
        case .purged: return "was not purged"
        case .notPurged: return "was purged"
        case .shouldNotExist: return "should not exist"
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
