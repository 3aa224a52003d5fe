import CSQLite
import Dispatch
import Foundation

/// A query over a database's collections, built with ``QueryBuilder`` or parsed from SQL++
/// by ``Database/createQuery(_:)``. Both compile to the same plan and the same SQL.
///
/// Results never include deleted documents (unless the WHERE clause asks about
/// ``Meta/isDeleted``) nor documents whose expiration has passed by the database's clock.
/// A query is safe to use from several threads; each ``execute()`` reads one snapshot.
public final class Query: @unchecked Sendable, CustomStringConvertible {
    // Safe because the plan and text never change after init and the parameters and live
    // listeners are behind their lock.
    let plan: QueryPlan
    /// The SQL++ text the query was parsed from, if it was.
    private let text: String?
    private let state = Locked((parameters: [String: JSONValue](), liveQueries: [ObjectIdentifier: LiveQuery]()))
    /// The last compilation and SQLite's schema version it was made against. Every change
    /// the compilation reads (a collection deleted, a value or full-text index created or
    /// deleted) creates or drops a table or index, which changes the schema version, so an
    /// unchanged version means the compilation still holds. Only compilations against
    /// committed schemas are kept: committed versions only grow, while a rolled-back
    /// transaction's version would be reused by the next change.
    private let compilation = Locked<(schemaVersion: Int64, query: CompiledQuery)?>(nil)

    init(plan: QueryPlan, text: String?) {
        self.plan = plan
        self.text = text
    }

    private func with(_ change: (inout QueryPlan) -> Void) -> Query {
        var copy = plan
        change(&copy)
        return Query(plan: copy, text: nil)
    }

    /// The database the query runs on.
    public var database: Database { plan.database }

    // MARK: Building

    /// A copy of the query with `joins` added after its existing joins.
    public func join(_ joins: Join...) -> Query { with { $0.joins += joins.map(\.plan) } }

    /// Keeps the rows for which `expression` is true (MISSING and NULL count as false).
    public func `where`(_ expression: any ExpressionProtocol) -> Query { with { $0.whereClause = expression.plan } }

    /// Groups rows with equal values of `expressions`; results then hold aggregates.
    public func groupBy(_ expressions: any ExpressionProtocol...) -> Query {
        with { $0.groupBy = expressions.map(\.plan) }
    }

    /// Keeps the groups for which `expression` is true.
    public func having(_ expression: any ExpressionProtocol) -> Query { with { $0.having = expression.plan } }

    /// Orders the rows; later orderings break ties of earlier ones.
    public func orderBy(_ orderings: Ordering...) -> Query {
        with {
            $0.orderBy = orderings.map { QueryPlan.OrderTerm(expression: $0.expression, descending: $0.isDescending) }
        }
    }

    /// Returns at most `limit` rows, after skipping `offset` rows.
    public func limit(_ limit: any ExpressionProtocol, offset: (any ExpressionProtocol)? = nil) -> Query {
        with {
            $0.limit = limit.plan
            $0.offset = offset?.plan
        }
    }

    // MARK: Parameters

    /// The values of the query's parameters; the query keeps a copy. Setting new parameters
    /// re-runs the query's live listeners.
    public var parameters: Parameters? {
        get {
            let values = state.withLock { $0.parameters }
            return values.isEmpty ? nil : Parameters(values: values)
        }
        set {
            let live = state.withLock { state in
                state.parameters = newValue?.snapshot ?? [:]
                return Array(state.liveQueries.values)
            }
            live.forEach { $0.scheduleRun() }
        }
    }

    var parameterValues: [String: JSONValue] { state.withLock { $0.parameters } }

    // MARK: Running

    /// Runs the query and returns its rows.
    ///
    /// - Throws: ``QuireError/Code/notOpen`` when a collection it reads was deleted or the database
    ///   closed; ``QuireError/Code/missingIndex`` for a full-text match on an index that does
    ///   not exist (as Couchbase Lite 3.2 answers it); ``QuireError/Code/invalidQuery`` when
    ///   SQLite refuses it as run (a bad full-text query string, a `LIMIT` that is not a number).
    public func execute() throws -> ResultSet {
        let database = plan.database
        let blobStore = database.blobStore
        let parameters = parameterValues
        let now = QueryClock.milliseconds(database.config.clock.now)
        return try run { connection in
            let compiled = try compile(connection)
            return ResultSet(rows: try compiled.run(connection, parameters: parameters, now: now, blobStore: blobStore))
        }
    }

    /// Runs the query, calls `header` with its column names, then `row` with each row's values
    /// (nil is MISSING) as SQLite steps to them, until `row` returns false: rows are not
    /// gathered first, so a large result streams (the command-line tool prints rows this way).
    /// The read stays open until the last row.
    ///
    /// - Throws: as ``execute()``, and what `header` or `row` throws.
    package func forEachRow(header: ([String]) throws -> Void, row: ([JSONValue?]) throws -> Bool) throws {
        let database = plan.database
        let parameters = parameterValues
        let now = QueryClock.milliseconds(database.config.clock.now)
        try run { connection in
            let compiled = try compile(connection)
            try header(compiled.columns.map(\.name))
            try compiled.forEachRow(connection, parameters: parameters, now: now, row)
        }
    }

    /// The names of the parameters (`$name`) the query uses, sorted.
    package var parameterNames: [String] { plan.parameterNames }

    /// The SQL the query runs, followed by SQLite's query plan for it (`EXPLAIN QUERY PLAN`),
    /// which shows the indexes used.
    ///
    /// - Throws: as ``execute()``.
    public func explain() throws -> String {
        try run { connection in
            let compiled = try compile(connection)
            let statement = try connection.prepare("EXPLAIN QUERY PLAN " + compiled.sql)
            try compiled.bind(statement, parameters: parameterValues, now: 0)
            var depth: [Int64: Int] = [0: 0]
            var lines: [String] = []
            while try statement.step() {
                let id = statement.int64(at: 0)
                let level = (depth[statement.int64(at: 1)] ?? 0) + 1
                depth[id] = level
                lines.append(String(repeating: "  ", count: level - 1) + (statement.text(at: 3) ?? ""))
            }
            return compiled.sql + "\n\n" + lines.joined(separator: "\n") + "\n"
        }
    }

    /// Compiles the plan against the current catalog (for full-text and array index tables), or
    /// returns the last compilation when the schema has not changed since.
    func compile(_ connection: Connection) throws -> CompiledQuery {
        let schemaVersion = try connection.scalarInt("PRAGMA schema_version") ?? -1
        if let last = compilation.withLock({ $0 }), last.schemaVersion == schemaVersion {
            return last.query
        }
        let compiled = try compileAgainstCatalog(connection)
        Log.write(.query, .verbose, "Compiled query: \(compiled.sql)")
        if !connection.isInWriteTransaction {
            compilation.withLock { $0 = (schemaVersion, compiled) }
        }
        return compiled
    }

    private func compileAgainstCatalog(_ connection: Connection) throws -> CompiledQuery {
        for source in plan.sources {
            let present = try connection.scalarInt(
                "SELECT 1 FROM quire_collections WHERE id = ?", [.integer(source.collection.id)])
            if present == nil {
                throw QuireError(.notOpen, "collection \(source.collection.fullName) has been deleted")
            }
        }
        return try QueryCompiler.compile(
            plan,
            fullTextTable: { collection, name in
                try IndexCatalog.fullTextTable(connection, collection: collection, name: name)
            },
            indexConditions: { collection in
                try IndexCatalog.partialIndexConditions(connection, table: collection.table)
            },
            elementTable: { collection, levels in
                try IndexCatalog.elementTable(connection, collection: collection, levels: levels)
            })
    }

    /// Runs `body` in a read; a SQLite error or type mismatch there is a problem of the query
    /// (a bad full-text query string, a LIMIT that is not a number), so it becomes invalidQuery.
    private func run<T>(_ body: (Connection) throws -> T) throws -> T {
        do {
            return try plan.database.read(body)
        } catch let error as QuireError
            where error.domain == .sqlite
            && (error.underlyingCode == SQLITE_ERROR || error.underlyingCode == SQLITE_MISMATCH)
        {
            throw QuireError(.invalidQuery, "query failed: \(error.message)", statement: error.statement)
        }
    }

    // MARK: Live queries

    /// Runs the query now and again after every committed transaction that changes one of
    /// its collections (bursts of commits are coalesced into one run), and calls `listener`
    /// on `queue` (a private serial queue when nil) with the first results and then whenever
    /// they change. Remove the token, or close the database, to stop it.
    @discardableResult
    public func addChangeListener(
        queue: DispatchQueue? = nil, listener: @escaping @Sendable (QueryChange) -> Void
    ) -> ListenerToken {
        let live = LiveQuery(
            query: self, queue: queue ?? DispatchQueue(label: "quire.query.listener"), listener: listener)
        let key = ObjectIdentifier(live)
        state.withLock { $0.liveQueries[key] = live }
        let token = live.start { [weak self] in
            self?.state.withLock { _ = $0.liveQueries.removeValue(forKey: key) }
        }
        return token
    }

    /// Stops the listener with `token` (the same as `token.remove()`).
    public func removeChangeListener(withToken token: ListenerToken) {
        token.remove()
    }

    // MARK: Description

    /// The query in SQL++.
    public var description: String { text ?? SQLPPPrinter.text(plan) }
}

/// Time in the units queries use.
enum QueryClock {
    /// Milliseconds since the epoch, rounded down.
    static func milliseconds(_ date: Date) -> Int64 {
        EpochMilliseconds.of(date)
    }
}
