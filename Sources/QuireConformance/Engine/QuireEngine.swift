import Foundation
import Quire

/// The in-process Quire document store as a conformance engine: the default engine of
/// `quire conform` and of the test suite's run of `Specs/`.
package struct QuireEngine: ConformanceEngine {
    /// `quire`.
    package let name = "quire"

    /// Makes the engine.
    package init() {}

    /// Opens the case's database in its own directory, with a manual clock when the case
    /// asks for one, after installing the case's fixture if it names one.
    package func makeSession(directory: URL, given: Given, seed: UInt64) throws -> any EngineSession {
        try QuireSession(directory: directory, given: given)
    }
}
