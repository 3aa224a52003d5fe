import CQuireFTS
import CSQLite

/// What full-text tables need on every connection: the `quire_rank` function and, with the
/// `Snowball` trait, the stemming tokenizer.
///
/// Registered on each connection as it opens rather than once as an SQLite auto-extension:
/// Apple's SQLite does not run process-wide auto-extensions, and an app there links the SDK's.
enum FullTextExtensions {
    /// Registers the functions and tokenizers on a connection just opened.
    ///
    /// - Throws: a ``QuireError`` in the `.sqlite` domain when SQLite refuses a registration.
    static func register(on handle: OpaquePointer) throws {
        var result = quire_fts_register(handle)
        if result == SQLITE_OK { result = SnowballStemmers.register(on: handle) }
        guard result == SQLITE_OK else {
            let error = QuireError.sqlite(result, connection: handle, statement: nil)
            throw QuireError(
                error.code, "cannot register the full-text functions: \(error.message)", domain: .sqlite,
                underlyingCode: error.underlyingCode, extendedCode: error.extendedCode)
        }
    }
}
