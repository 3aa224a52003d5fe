import CQuireFTS
import CSQLite
import Foundation

/// The SQL functions and collations Quire's queries use beyond SQLite's own, registered on
/// every connection when it opens (see `Connection.configure`).
///
/// - `regexp(pattern, text)`: the function behind SQLite's `REGEXP` operator; true when
///   `pattern` (ICU syntax, NSRegularExpression) matches somewhere in `text`. Compiled
///   patterns are cached per connection.
/// - `quire_like(text, pattern, flags)`: LIKE, case-sensitive unless a collation relaxes it
///   (flags: 1 ignore case, 2 ignore accents); `\` escapes `%` and `_`.
/// - `quire_contains(text, part, flags)`: CONTAINS under a collation (flags as for `quire_like`).
/// - `quire_log10(number)`: C's log10 (exact for powers of ten, unlike SQLite's); NULL for
///   anything but a number, and where the answer is not finite.
/// - `quire_lower(text)`, `quire_upper(text)`: Unicode case mapping (SQLite's is ASCII only).
/// - `quire_call(name, argument, ...)`: the SQL++ function `name` of ``TypedFunctions`` over
///   arguments given as JSON text (NULL for MISSING), answering JSON text (NULL for MISSING);
///   `quire_call_local` the same for functions that read the device's time zone.
/// - `quire_json(value, type)`: the JSON text of a compiled expression's value and type.
/// - `quire_extract(json, path)`, `quire_type(json, path)`: `json_extract` and `json_type` with
///   one path, answered by scanning the text (C, `quire_path.c`); queries and index
///   expressions read stored bodies with them.
/// - `quire_revid(revid)`: the text of a revision ID as a document table stores it (C,
///   `quire_revid.c`; see ``StoredRevisionID``), for `meta().revisionID`; `quire_revid_pack`,
///   its inverse, for the migration that packs the IDs already stored.
/// - `quire_str_to_millis`, `quire_str_to_utc`, `quire_millis_to_utc`, `quire_millis_to_str`:
///   the date functions as earlier versions compiled them (index expressions may name them).
/// - collations `QUIRE_UNICODE`, `QUIRE_UNICODE_NOCASE`, `QUIRE_UNICODE_NODIAC`,
///   `QUIRE_UNICODE_NOCASE_NODIAC` (see ``UnicodeCollator``), and the same names followed by
///   `@` and a locale (`QUIRE_UNICODE@sv`), registered when a statement first needs one.
///
/// Everything but `quire_millis_to_str` and `quire_call_local` (which depend on the time zone) is deterministic and
/// innocuous, so it may appear in index expressions and triggers.
enum SQLFunctions {
    /// A Swift function called by SQLite with the call's context and arguments.
    private final class Box {
        let body: (OpaquePointer?, [OpaquePointer?]) -> Void
        init(_ body: @escaping (OpaquePointer?, [OpaquePointer?]) -> Void) { self.body = body }
    }

    /// The per-connection cache of compiled regular expressions.
    private final class RegexCache {
        var patterns: [String: NSRegularExpression] = [:]

        func regex(_ pattern: String) throws -> NSRegularExpression {
            if let cached = patterns[pattern] { return cached }
            let compiled = try NSRegularExpression(pattern: pattern)
            if patterns.count >= 64 { patterns.removeAll() }
            patterns[pattern] = compiled
            return compiled
        }
    }

    static func register(on connection: Connection) throws {
        let handle = connection.handle
        let pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS
        let cache = RegexCache()
        var registered = quire_path_register(handle)
        if registered == SQLITE_OK { registered = quire_revid_register(handle) }
        if registered == SQLITE_OK { registered = quire_body_register(handle) }
        guard registered == SQLITE_OK else { throw QuireError.sqlite(registered, connection: handle, statement: nil) }
        try function(handle, "regexp", 2, pure) { context, arguments in
            guard let pattern = text(arguments[0]), let subject = text(arguments[1]) else {
                return sqlite3_result_null(context)
            }
            do {
                let regex = try cache.regex(pattern)
                let range = NSRange(subject.startIndex..., in: subject)
                sqlite3_result_int64(context, regex.firstMatch(in: subject, range: range) == nil ? 0 : 1)
            } catch {
                sqlite3_result_error(context, "invalid regular expression '\(pattern)'", -1)
            }
        }
        try function(handle, "quire_like", 3, pure) { context, arguments in
            guard let subject = text(arguments[0]), let pattern = text(arguments[1]) else {
                return sqlite3_result_null(context)
            }
            let flags = sqlite3_value_int64(arguments[2])
            let matched = UnicodeCollator.like(
                subject, pattern, ignoreCase: flags & 1 != 0, ignoreAccents: flags & 2 != 0)
            sqlite3_result_int64(context, matched ? 1 : 0)
        }
        try function(handle, "quire_contains", 3, pure) { context, arguments in
            guard let subject = text(arguments[0]), let part = text(arguments[1]) else {
                return sqlite3_result_null(context)
            }
            let flags = sqlite3_value_int64(arguments[2])
            let found = UnicodeCollator.contains(
                subject, part, ignoreCase: flags & 1 != 0, ignoreAccents: flags & 2 != 0)
            sqlite3_result_int64(context, found ? 1 : 0)
        }
        try function(handle, "quire_log10", 1, pure) { context, arguments in
            let type = sqlite3_value_type(arguments[0])
            guard type == SQLITE_INTEGER || type == SQLITE_FLOAT else { return sqlite3_result_null(context) }
            let answer = log10(sqlite3_value_double(arguments[0]))
            if answer.isFinite { sqlite3_result_double(context, answer) } else { sqlite3_result_null(context) }
        }
        try function(handle, "quire_lower", 1, pure) { context, arguments in
            result(context, stringArgument(arguments[0])?.lowercased())
        }
        try function(handle, "quire_upper", 1, pure) { context, arguments in
            result(context, stringArgument(arguments[0])?.uppercased())
        }
        // The date functions of earlier versions, kept for index expressions that name them.
        for (sqlName, functionName) in [
            ("quire_str_to_millis", "STR_TO_MILLIS"), ("quire_str_to_utc", "STR_TO_UTC"),
            ("quire_millis_to_utc", "MILLIS_TO_UTC"), ("quire_millis_to_str", "MILLIS_TO_STR"),
        ] {
            try function(handle, sqlName, 1, functionName == "MILLIS_TO_STR" ? SQLITE_UTF8 : pure) {
                context, arguments in
                let argument: JSONValue? =
                    switch sqlite3_value_type(arguments[0]) {
                    case SQLITE_INTEGER: .int(sqlite3_value_int64(arguments[0]))
                    case SQLITE_FLOAT: .double(sqlite3_value_double(arguments[0]))
                    case SQLITE_TEXT: text(arguments[0]).map { .string($0) }
                    default: nil
                    }
                switch QueryDates.evaluate(functionName, [argument]) {
                case .string(let text)?: result(context, text)
                case .int(let number)?: sqlite3_result_int64(context, number)
                default: sqlite3_result_null(context)
                }
            }
        }
        try function(handle, "quire_json", 2, pure) { context, arguments in
            json(context, value: arguments[0], type: arguments[1])
        }
        for (sqlName, flags) in [("quire_call", pure), ("quire_call_local", SQLITE_UTF8)] {
            try function(handle, sqlName, -1, flags) { context, arguments in
                call(context, arguments, cache: cache)
            }
        }
        for variant in UnicodeCollator.variants {
            let flags = (variant.ignoreCase ? 1 : 0) | (variant.ignoreAccents ? 2 : 0)
            let result = sqlite3_create_collation_v2(
                handle, variant.name, SQLITE_UTF8, UnsafeMutableRawPointer(bitPattern: flags + 1), compareCallback, nil)
            guard result == SQLITE_OK else {
                throw QuireError.sqlite(result, connection: handle, statement: nil)
            }
        }
        sqlite3_collation_needed(handle, nil, collationNeeded)
    }

    /// A Unicode collation with a locale, registered under its name on first use.
    private final class LocaleCollation {
        let ignoreCase: Bool
        let ignoreAccents: Bool
        let locale: Locale
        init(ignoreCase: Bool, ignoreAccents: Bool, locale: Locale) {
            self.ignoreCase = ignoreCase
            self.ignoreAccents = ignoreAccents
            self.locale = locale
        }
    }

    /// Registers a `QUIRE_UNICODE…@locale` collation the moment a statement names it.
    private static let collationNeeded:
        @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Void = {
            _, handle, _, name in
            guard let handle, let name, let wanted = UnicodeCollator.localeVariant(named: String(cString: name)) else {
                return
            }
            let collation = LocaleCollation(
                ignoreCase: wanted.ignoreCase, ignoreAccents: wanted.ignoreAccents, locale: wanted.locale)
            let context = Unmanaged.passRetained(collation).toOpaque()
            let result = sqlite3_create_collation_v2(
                handle, name, SQLITE_UTF8, context, localeCompareCallback, releaseLocaleCollation)
            // On failure SQLite does not call the destructor: release here.
            if result != SQLITE_OK { Unmanaged<LocaleCollation>.fromOpaque(context).release() }
        }

    private static let localeCompareCallback:
        @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
            context, leftCount, left, rightCount, right in
            guard let context else { return 0 }
            let collation = Unmanaged<LocaleCollation>.fromOpaque(context).takeUnretainedValue()
            let leftText = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
            let rightText = String(
                decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
            return Int32(
                UnicodeCollator.compare(
                    leftText, rightText, ignoreCase: collation.ignoreCase, ignoreAccents: collation.ignoreAccents,
                    locale: collation.locale))
        }

    private static let releaseLocaleCollation: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
        guard let context else { return }
        Unmanaged<LocaleCollation>.fromOpaque(context).release()
    }

    private static let compareCallback:
        @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32 = {
            context, leftCount, left, rightCount, right in
            let flags = Int(bitPattern: context) - 1
            let leftText = String(decoding: UnsafeRawBufferPointer(start: left, count: Int(leftCount)), as: UTF8.self)
            let rightText = String(
                decoding: UnsafeRawBufferPointer(start: right, count: Int(rightCount)), as: UTF8.self)
            return Int32(
                UnicodeCollator.compare(leftText, rightText, ignoreCase: flags & 1 != 0, ignoreAccents: flags & 2 != 0))
        }

    private static let callFunction:
        @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
            context, count, values in
            guard let data = sqlite3_user_data(context) else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            box.body(context, (0..<Int(count)).map { values?[$0] })
        }

    private static let destroyBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { data in
        guard let data else { return }
        Unmanaged<Box>.fromOpaque(data).release()
    }

    private static func function(
        _ handle: OpaquePointer, _ name: String, _ arity: Int32, _ flags: Int32,
        _ body: @escaping (OpaquePointer?, [OpaquePointer?]) -> Void
    ) throws {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let result = sqlite3_create_function_v2(handle, name, arity, flags, box, callFunction, nil, nil, destroyBox)
        guard result == SQLITE_OK else {
            throw QuireError.sqlite(result, connection: handle, statement: nil)
        }
    }

    /// Runs a ``TypedFunctions`` function: the first argument names it, the rest are JSON text.
    private static func call(_ context: OpaquePointer?, _ arguments: [OpaquePointer?], cache: RegexCache) {
        guard let name = arguments.first.flatMap({ text($0) }) else { return sqlite3_result_null(context) }
        do {
            var values: [JSONValue?] = []
            values.reserveCapacity(arguments.count - 1)
            for argument in arguments.dropFirst() {
                guard sqlite3_value_type(argument) != SQLITE_NULL, let pointer = sqlite3_value_text(argument) else {
                    values.append(nil)
                    continue
                }
                let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(argument)))
                values.append(try JSONReader.parse(bytes))
            }
            guard let answer = try TypedFunctions.evaluate(name, values, regex: cache.regex) else {
                return sqlite3_result_null(context)
            }
            result(context, try answer.jsonString())
        } catch {
            sqlite3_result_error(
                context, "\(name.lowercased())(): invalid argument (\(error.localizedDescription))", -1)
        }
    }

    /// The JSON text of a value and its type as the compiler gives them (booleans 0 and 1,
    /// containers JSON text, `json_type`'s names or 'value'); NULL for MISSING.
    private static func json(_ context: OpaquePointer?, value: OpaquePointer?, type: OpaquePointer?) {
        guard let typeName = text(type) else { return sqlite3_result_null(context) }
        switch typeName {
        case "null", "true", "false": return result(context, typeName)
        case "array", "object": return result(context, text(value) ?? "null")
        default: break
        }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: result(context, String(sqlite3_value_int64(value)))
        case SQLITE_FLOAT: result(context, (try? JSONValue.double(sqlite3_value_double(value)).jsonString()) ?? "null")
        case SQLITE_TEXT, SQLITE_BLOB:
            result(context, (try? JSONValue.string(text(value) ?? "").jsonString()) ?? "null")
        default: result(context, "null")
        }
    }

    /// Any non-NULL argument as text (SQLite converts numbers).
    private static func text(_ value: OpaquePointer?) -> String? {
        guard sqlite3_value_type(value) != SQLITE_NULL, let pointer = sqlite3_value_text(value) else { return nil }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// A text argument; other types give nil, so string functions of numbers are NULL.
    private static func stringArgument(_ value: OpaquePointer?) -> String? {
        sqlite3_value_type(value) == SQLITE_TEXT ? text(value) : nil
    }

    private static func millisecondsArgument(_ value: OpaquePointer?) -> Date? {
        let type = sqlite3_value_type(value)
        guard type == SQLITE_INTEGER || type == SQLITE_FLOAT else { return nil }
        return Date(timeIntervalSince1970: sqlite3_value_double(value) / 1000)
    }

    private static func result(_ context: OpaquePointer?, _ text: String?) {
        guard let text else { return sqlite3_result_null(context) }
        sqlite3_result_text(context, text, -1, quire_sqlite_transient())
    }
}
