import Foundation
import Quire

/// The engines `quire conform` can use, by name.
///
/// The executable registers the in-process Quire engine as the default at start-up; tests
/// and other tools may register their own. Registration is thread-safe.
package enum EngineRegistry {
    /// Makes an engine on demand, so unused engines cost nothing.
    package typealias Factory = @Sendable () throws -> any ConformanceEngine

    private static let state = Locked(State())

    /// The in-process Quire engine is registered, as the default, from the start.
    private struct State {
        var factories: [String: Factory] = ["quire": { QuireEngine() }]
        var defaultName: String? = "quire"
        /// Engines named `scheme:argument`, made from the argument (`testkit:http://host:port`).
        var schemes: [String: SchemeFactory] = [
            "testkit": { try TestKitEngine(url: $0) },
            "testkit-plain": { try TestKitEngine(url: $0, usesExtension: false) },
        ]
    }

    /// Makes an engine from the argument after `scheme:` in its name.
    package typealias SchemeFactory = @Sendable (String) throws -> any ConformanceEngine

    /// Registers (or replaces) engines named `scheme:argument`, such as `testkit:URL`.
    package static func registerScheme(_ scheme: String, factory: @escaping SchemeFactory) {
        state.withLock { $0.schemes[scheme] = factory }
    }

    /// Registers (or replaces) an engine under `name`.
    ///
    /// - Parameter isDefault: make it the engine used when none is named.
    package static func register(_ name: String, isDefault: Bool = false, factory: @escaping Factory) {
        state.withLock { state in
            state.factories[name] = factory
            if isDefault { state.defaultName = name }
        }
    }

    /// Removes an engine; if it was the default, there is no default any more.
    package static func unregister(_ name: String) {
        state.withLock { state in
            state.factories[name] = nil
            if state.defaultName == name { state.defaultName = nil }
        }
    }

    /// The registered names, sorted.
    package static var names: [String] {
        state.withLock { $0.factories.keys.sorted() }
    }

    /// The default engine's name, if one is registered.
    package static var defaultName: String? {
        state.withLock { $0.defaultName }
    }

    /// Makes the engine called `name`, or the default one when `name` is nil.
    ///
    /// - Throws: ``RegistryError`` when there is no such engine or no default.
    package static func makeEngine(named name: String? = nil) throws -> any ConformanceEngine {
        let (factory, known, chosen): (Factory?, [String], String?) = state.withLock { state in
            let chosen = name ?? state.defaultName
            if let chosen, state.factories[chosen] == nil, let colon = chosen.firstIndex(of: ":"),
                let scheme = state.schemes[String(chosen[..<colon])]
            {
                let argument = String(chosen[chosen.index(after: colon)...])
                return ({ try scheme(argument) }, [], chosen)
            }
            let known = state.factories.keys.sorted() + state.schemes.keys.sorted().map { "\($0):URL" }
            return (chosen.flatMap { state.factories[$0] }, known, chosen)
        }
        guard let factory else {
            throw RegistryError(requested: chosen, registered: known)
        }
        return try factory()
    }
}

/// No engine by the requested name, or no default engine.
package struct RegistryError: Error, Sendable, CustomStringConvertible {
    /// The name asked for, or nil when the default was asked for.
    package var requested: String?
    /// The names that are registered.
    package var registered: [String]

    /// A sentence saying what is missing and what there is.
    package var description: String {
        let available = registered.isEmpty ? "none is registered" : "registered: \(registered.joined(separator: ", "))"
        if let requested {
            return
                "no conformance engine named '\(requested)' (\(available))\(Suggestion.didYouMean(requested, in: registered))"
        }
        return "no conformance engine is registered as the default (\(available)); name one with --engine"
    }
}
