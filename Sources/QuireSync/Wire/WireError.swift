import Quire

/// Building errors about malformed replication-protocol JSON.
///
/// Everything a peer sends is untrusted: a wrong shape becomes a ``QuireError`` with code
/// `invalidParameter` naming the field, never a crash.
package enum WireError {
    /// "`<what>`: `<problem>`" as an invalidParameter error.
    package static func invalid(_ what: String, _ problem: String) -> QuireError {
        QuireError(.invalidParameter, "\(what): \(problem)")
    }
}
