import Quire
import Testing

/// Expects `body` to throw a `QuireError` with `code` whose message contains every fragment.
func expectQuireError(
    _ code: QuireError.Code, containing fragments: [String], sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> Void
) {
    do {
        try body()
        Issue.record("expected \(code.name) containing \(fragments), got no error", sourceLocation: sourceLocation)
    } catch let error as QuireError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(
                error.message.contains(fragment), "'\(error.message)' lacks '\(fragment)'",
                sourceLocation: sourceLocation)
        }
    } catch {
        Issue.record("expected QuireError, got \(error)", sourceLocation: sourceLocation)
    }
}
