import Foundation

/// A query plan turned into SQLite SQL: the statement text, what its numbered parameters
/// are bound to, and how each result column is read back.
struct CompiledQuery: Sendable {
    /// What one numbered SQL parameter (`?1`, `?2`, ...) is bound to.
    enum Binding: Sendable, Hashable {
        /// The database clock's current time in milliseconds, for the expiration filter.
        case now
        /// The value of a query parameter.
        case parameterValue(String)
        /// The JSON type name of a query parameter (NULL when unset: MISSING).
        case parameterType(String)
    }

    /// One result column: its key and the SQL columns holding its value and its JSON type, or
    /// one SQL column holding both (``isCombined``).
    struct Column: Sendable {
        let name: String
        let valueIndex: Int32
        let typeIndex: Int32

        /// A value and its type in two SQL columns.
        init(name: String, valueIndex: Int32, typeIndex: Int32) {
            self.name = name
            self.valueIndex = valueIndex
            self.typeIndex = typeIndex
        }

        /// A `quire_result` column: NULL for MISSING, strings as text, numbers as integers and
        /// reals, and null, booleans and containers as blobs of their JSON text.
        init(name: String, combinedIndex: Int32) {
            self.init(name: name, valueIndex: combinedIndex, typeIndex: combinedIndex)
        }

        var isCombined: Bool { valueIndex == typeIndex }
    }

    let sql: String
    let bindings: [Binding]
    let columns: [Column]
    /// The catalog ids of the collections the query reads.
    let collectionIDs: Set<Int64>

    /// Binds every parameter of `statement`, which was prepared from ``sql``.
    func bind(_ statement: Statement, parameters: [String: JSONValue], now: Int64) throws {
        for (offset, binding) in bindings.enumerated() {
            let index = Int32(offset + 1)
            switch binding {
            case .now:
                try statement.bind(now, at: index)
            case .parameterValue(let name):
                try statement.bind(CompiledQuery.sqliteValue(parameters[name]), at: index)
            case .parameterType(let name):
                try statement.bind(SQLiteValue.text(parameters[name].map(CompiledQuery.typeName)), at: index)
            }
        }
    }

    /// Runs the statement and reads every row, each value as it is stepped to.
    func run(_ connection: Connection, parameters: [String: JSONValue], now: Int64, blobStore: BlobStore?) throws
        -> ResultRows
    {
        // Each row's values go straight into the flat array, with no row array between.
        var values: [JSONValue?] = []
        var count = 0
        try step(connection, parameters: parameters, now: now) { statement in
            for column in columns { values.append(decode(statement, column)) }
            count += 1
            return true
        }
        return ResultRows(columnNames: columns.map(\.name), values: values, count: count, blobStore: blobStore)
    }

    /// Runs the statement and calls `body` with each row's values (nil is MISSING) as it is
    /// stepped to, until `body` returns false; nothing is kept between rows.
    func forEachRow(
        _ connection: Connection, parameters: [String: JSONValue], now: Int64, _ body: ([JSONValue?]) throws -> Bool
    ) throws {
        var row: [JSONValue?] = []
        row.reserveCapacity(columns.count)
        try step(connection, parameters: parameters, now: now) { statement in
            row.removeAll(keepingCapacity: true)
            for column in columns { row.append(decode(statement, column)) }
            return try body(row)
        }
    }

    /// Binds the parameters and steps the statement, calling `body` at each row until it
    /// returns false; the statement is reset afterwards.
    private func step(
        _ connection: Connection, parameters: [String: JSONValue], now: Int64, _ body: (Statement) throws -> Bool
    ) throws {
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        try bind(statement, parameters: parameters, now: now)
        while try statement.step() {
            guard try body(statement) else { return }
        }
    }

    /// What a type column says about its value column: SQL NULL is MISSING, and `json_type`'s
    /// names tell JSON null, booleans (stored as 0 and 1) and containers (stored as JSON text)
    /// apart from plain values.
    private enum Kind {
        case missing, null, yes, no, container, plain
    }

    /// Reads the type column's bytes in place rather than as a `String`.
    private func kind(_ statement: Statement, _ column: Column) -> Kind {
        if statement.isNull(at: column.typeIndex) { return .missing }
        return statement.withUnsafeBytes(at: column.typeIndex) { name -> Kind in
            func equals(_ literal: StaticString) -> Bool {
                guard let base = name.baseAddress, name.count == literal.utf8CodeUnitCount else { return false }
                return memcmp(base, literal.utf8Start, literal.utf8CodeUnitCount) == 0
            }
            switch name.count {
            case 4: return equals("null") ? .null : equals("true") ? .yes : .plain
            case 5: return equals("false") ? .no : equals("array") ? .container : .plain
            case 6: return equals("object") ? .container : .plain
            default: return .plain
            }
        }
    }

    /// Reads one column of the current row.
    private func decode(_ statement: Statement, _ column: Column) -> JSONValue? {
        if column.isCombined { return decodeCombined(statement, column.valueIndex) }
        switch kind(statement, column) {
        case .missing: return nil
        case .null: return .null
        case .yes: return .bool(true)
        case .no: return .bool(false)
        case .container:
            if let parsed = try? statement.withUnsafeBytes(at: column.valueIndex, { try JSONReader.parse($0) }) {
                return parsed
            }
            return statement.text(at: column.valueIndex).map { .string($0) } ?? .null
        case .plain:
            switch statement.value(at: column.valueIndex) {
            case .null: return .null
            case .integer(let number): return .int(number)
            case .real(let number): return number.isFinite ? .double(number) : .null
            case .text(let text): return .string(text)
            case .blob(let bytes):
                // Aggregates read a null as LiteCore's empty blob, arrays and objects as blobs
                // of their JSON text (QueryCompiler+NullAsBlob).
                if bytes.isEmpty { return .null }
                if let parsed = try? JSONReader.parse(bytes) { return parsed }
                return .string(Data(bytes).base64EncodedString())
            }
        }
    }

    /// Reads a `quire_result` column (see ``Column/init(name:combinedIndex:)``): the blob of a
    /// JSON literal or container is told apart by its text, with no type column to read.
    private func decodeCombined(_ statement: Statement, _ index: Int32) -> JSONValue? {
        guard statement.isBlob(at: index) else {
            switch statement.value(at: index) {
            case .null: return nil
            case .integer(let number): return .int(number)
            case .real(let number): return number.isFinite ? .double(number) : .null
            case .text(let text): return .string(text)
            case .blob: return nil
            }
        }
        return statement.withUnsafeBytes(at: index) { bytes -> JSONValue in
            func equals(_ literal: StaticString) -> Bool {
                guard let base = bytes.baseAddress, bytes.count == literal.utf8CodeUnitCount else { return false }
                return memcmp(base, literal.utf8Start, literal.utf8CodeUnitCount) == 0
            }
            if equals("null") { return .null }
            if equals("true") { return .bool(true) }
            if equals("false") { return .bool(false) }
            if let parsed = try? JSONReader.parse(bytes) { return parsed }
            return .string(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// How a parameter value is bound: booleans as 0 and 1, containers as JSON text.
    static func sqliteValue(_ value: JSONValue?) -> SQLiteValue {
        switch value {
        case nil, .null?: return .null
        case .bool(let flag)?: return .integer(flag ? 1 : 0)
        case .int(let number)?: return .integer(number)
        case .double(let number)?: return .real(number)
        case .string(let text)?: return .text(text)
        case .array?, .object?: return .text((try? value?.jsonString()) ?? "null")
        }
    }

    /// The name SQLite's `json_type` gives a value of this kind.
    static func typeName(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool(let flag): return flag ? "true" : "false"
        case .int: return "integer"
        case .double: return "real"
        case .string: return "text"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
