import CSQLite

/// A prepared SQLite statement bound to one ``Connection``.
///
/// Statements are not thread-safe: they belong to the connection that prepared them, and a
/// connection is only ever used by one thread at a time (the core hands it out).
package final class Statement {
    let handle: OpaquePointer
    /// The SQL text the statement was prepared from.
    package let sql: String
    private unowned let connection: Connection

    init(connection: Connection, sql: String) throws {
        var prepared: OpaquePointer?
        let result = sql.withCString { text in
            sqlite3_prepare_v3(connection.handle, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
        }
        guard result == SQLITE_OK, let prepared else {
            throw QuireError.sqlite(result, connection: connection.handle, statement: sql)
        }
        self.handle = prepared
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: Binding

    /// Binds one value to a 1-based parameter index.
    package func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .null: try check(sqlite3_bind_null(handle, index))
        case .integer(let number): try bind(number, at: index)
        case .real(let number): try check(sqlite3_bind_double(handle, index, number))
        case .text(let text): try bind(text, at: index)
        case .blob(let bytes): try bind(blob: bytes, at: index)
        }
    }

    /// Binds an integer.
    package func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a double.
    package func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    /// Binds text; SQLite takes its own copy, so the string need not outlive the call.
    package func bind(_ value: String, at index: Int32) throws {
        var text = value
        try text.withUTF8 { buffer in
            try bindText(UnsafeRawBufferPointer(buffer), at: index)
        }
    }

    /// Binds UTF-8 bytes as text (used for JSON bodies, which are produced as bytes).
    package func bind(utf8 bytes: [UInt8], at index: Int32) throws {
        try bytes.withUnsafeBytes { buffer in
            try bindText(buffer, at: index)
        }
    }

    /// Binds UTF-8 bytes as text, copied by SQLite (the memory may go once this returns).
    func bind(utf8Buffer buffer: UnsafeRawBufferPointer, at index: Int32) throws {
        try bindText(buffer, at: index)
    }

    private func bindText(_ buffer: UnsafeRawBufferPointer, at index: Int32) throws {
        guard let base = buffer.baseAddress, buffer.count > 0 else {
            // An empty text value, not NULL.
            try check("".withCString { sqlite3_bind_text(handle, index, $0, 0, quire_sqlite_transient()) })
            return
        }
        try check(
            sqlite3_bind_text(
                handle, index, base.assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                quire_sqlite_transient()))
    }

    /// Binds UTF-8 text that SQLite reads in place instead of copying (`SQLITE_STATIC`): the
    /// memory must stay valid, unchanged, until the statement has run and been reset. For the
    /// save path, where a document body would otherwise be copied once more per save.
    func bindTextInPlace(_ text: UnsafeRawBufferPointer, at index: Int32) throws {
        // A zero-length text still needs a non-null pointer to be '' rather than NULL.
        let base = text.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        try check(
            sqlite3_bind_text(handle, index, base?.assumingMemoryBound(to: CChar.self), Int32(text.count), nil))
    }

    /// Binds bytes as a BLOB that SQLite reads in place (`SQLITE_STATIC`), under the rule of
    /// ``bindTextInPlace(_:at:)``.
    func bindBlobInPlace(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws {
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        try check(sqlite3_bind_blob(handle, index, base, Int32(bytes.count), nil))
    }

    /// Binds bytes as a BLOB.
    package func bind(blob bytes: [UInt8], at index: Int32) throws {
        try bytes.withUnsafeBytes { try bind(blobBuffer: $0, at: index) }
    }

    /// Binds bytes as a BLOB, copied by SQLite (the memory may go once this returns).
    func bind(blobBuffer buffer: UnsafeRawBufferPointer, at index: Int32) throws {
        try check(
            sqlite3_bind_blob(
                handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                quire_sqlite_transient()))
    }

    /// Binds NULL.
    package func bindNull(at index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds values to parameters 1...n, in order.
    package func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    /// The 1-based index of a named parameter (`:name`, `$name`), or nil.
    package func parameterIndex(_ name: String) -> Int32? {
        let index = sqlite3_bind_parameter_index(handle, name)
        return index == 0 ? nil : index
    }

    /// The number of parameters the statement takes.
    package var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

    // MARK: Stepping

    /// Advances to the next row: true when a row is available, false when done.
    @discardableResult
    package func step() throws -> Bool {
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = QuireError.sqlite(result, connection: connection.handle, statement: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement and clears its bindings so it can run again.
    package func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Resets the statement (ending its read transaction, if it is the last one active) and
    /// leaves its bindings as they are: for a statement whose bindings are already cleared.
    func resetKeepingBindings() {
        sqlite3_reset(handle)
    }

    /// Clears the bindings of a statement left on a row, without resetting it: its read
    /// transaction stays open, and nothing it holds points at memory bound in place. The
    /// statement must be reset before it is stepped again.
    func clearBindingsKeepingRow() {
        sqlite3_clear_bindings(handle)
    }

    /// Runs the statement to completion, ignoring rows.
    package func run() throws {
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs an INSERT to completion; false, instead of an error, when the row's key is taken:
    /// a unique index (document tables keyed by sequence) or the primary key (the
    /// `WITHOUT ROWID` tables of schema versions 1 and 2). SQLite has then undone the statement
    /// and nothing else.
    /// Clears the bindings afterwards, so none is left pointing at memory bound in place.
    func insertUnlessKeyExists() throws -> Bool {
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_DONE: return true
        // SQLITE_CONSTRAINT_PRIMARYKEY and SQLITE_CONSTRAINT_UNIQUE, macros Swift does not import.
        case SQLITE_CONSTRAINT | (6 << 8), SQLITE_CONSTRAINT | (8 << 8): return false
        default: throw QuireError.sqlite(result, connection: connection.handle, statement: sql)
        }
    }

    // MARK: Reading columns

    /// The number of columns in a result row.
    package var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of a result column.
    package func columnName(at index: Int32) -> String {
        sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The storage class of a column in the current row.
    package func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// A column as an integer (0 for NULL).
    package func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// A column as a double (0 for NULL).
    package func double(at index: Int32) -> Double {
        sqlite3_column_double(handle, index)
    }

    /// A column as text, or nil for NULL.
    package func text(at index: Int32) -> String? {
        let type = sqlite3_column_type(handle, index)
        guard type != SQLITE_NULL else { return nil }
        return String(decoding: rawBytes(at: index, type: type), as: UTF8.self)
    }

    /// Gives the column's bytes to `body` without copying them; the buffer is valid only
    /// inside the call (SQLite owns it until the next step or reset).
    package func withUnsafeBytes<T>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try body(rawBytes(at: index, type: sqlite3_column_type(handle, index)))
    }

    /// The bytes of a column of type `type`, valid until the next step or reset. Text comes
    /// from `sqlite3_column_blob`, which gives it as it is, where `sqlite3_column_text` first
    /// copies a value that lacks a terminating zero (a function's result) to add one; Quire's
    /// databases are UTF-8 (``Connection`` refuses others), so these are the UTF-8 text. Numbers
    /// come as their text.
    private func rawBytes(at index: Int32, type: Int32) -> UnsafeRawBufferPointer {
        let pointer: UnsafeRawPointer?
        if type == SQLITE_BLOB || type == SQLITE_TEXT {
            pointer = sqlite3_column_blob(handle, index)
        } else {
            pointer = sqlite3_column_text(handle, index).map { UnsafeRawPointer($0) }
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return UnsafeRawBufferPointer(start: count == 0 ? nil : pointer, count: count)
    }

    /// A column as bytes (empty for NULL).
    package func bytes(at index: Int32) -> [UInt8] {
        withUnsafeBytes(at: index) { Array($0) }
    }

    /// Whether a column of the current row holds a blob.
    package func isBlob(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_BLOB
    }

    /// A column as a ``SQLiteValue``.
    package func value(at index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return .text(text(at: index) ?? "")
        case SQLITE_BLOB: return .blob(bytes(at: index))
        default: return .null
        }
    }

    private func check(_ result: Int32) throws {
        guard result == SQLITE_OK else {
            throw QuireError.sqlite(result, connection: connection.handle, statement: sql)
        }
    }
}
