/// An error an engine reports for a step, in the terms spec files use: a domain and a code
/// name (`Quire` / `invalidParameter`), plus a message.
///
/// The Quire engine maps `QuireError` to its domain's raw value (`Quire`, `SQLite`, `POSIX`,
/// `Network`) and `code.name`. Errors in the ``conformanceDomain`` belong to the runner and
/// the engine contract rather than to the store under test (an unsupported step, a deliberate
/// abort of a batch); an unexpected one makes a case an error rather than a failure.
package struct EngineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The domain the runner and the engine contract use for their own errors.
    package static let conformanceDomain = "Conformance"

    /// The domain of the runner's own refusals: a step the runner cannot do as written (a held
    /// object that was never named, a `from` document that is no longer stored, an immutable
    /// object given to save). The store under test never reports these; an unexpected one
    /// makes a case an error.
    package static let runnerDomain = "Runner"

    /// The runner refuses a step: `code` names the refusal (`noSuchObject`, `staleFrom` ...).
    package static func refusal(_ code: String, _ message: String) -> EngineError {
        EngineError(domain: runnerDomain, code: code, message: message)
    }

    /// Where the error comes from (`Quire`, `SQLite`, `POSIX`, `Network`, `Conformance`).
    package var domain: String
    /// The code's name (`invalidParameter`, `notFound`, `conflict` ...).
    package var code: String
    /// What was wrong.
    package var message: String

    /// Makes an error.
    package init(domain: String, code: String, message: String) {
        self.domain = domain
        self.code = code
        self.message = message
    }

    /// The engine does not implement `what` (a step, a baseline, a setting).
    package static func unsupported(_ what: String) -> EngineError {
        EngineError(domain: conformanceDomain, code: "unsupported", message: "the engine does not support \(what)")
    }

    /// The error a batch with `throw: true` raises inside its transaction. Engines must let it
    /// propagate out of ``EngineSession/inBatch(_:)`` unchanged, after rolling back.
    package static let batchAborted = EngineError(
        domain: conformanceDomain, code: "batchAborted", message: "the batch was aborted on purpose by the spec")

    /// `Domain.code: message`.
    package var description: String { "\(domain).\(code): \(message)" }
}
