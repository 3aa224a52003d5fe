import ArgumentParser
import Foundation
import Quire
import QuireFixtureBuilder

/// `quire db query DATABASE "SQL++" [--param NAME=VALUE ...] [--limit N] [--offset N]
/// [--format table|json|jsonl|csv] [--explain] [--json]`.
struct DbQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a SQL++ query, or show its plan.",
        discussion: """
            Rows are printed as the query yields them, never gathered first: as a table (its \
            column widths set by the first 200 rows), or with --format as one JSON array, JSON \
            Lines (--json is the same) or CSV. A --param value is read as JSON when it is JSON \
            (42, true, "x", [1,2]) and as a string otherwise; the query names it $NAME, and a \
            $NAME with no --param is refused. --limit and --offset page through the rows as \
            cblite's select does, on top of the query's own LIMIT and OFFSET.

            Example:
              quire db query t.quire 'SELECT * FROM hotel WHERE city=$c' --param c=Pisa
              quire db query t.quire 'SELECT * FROM hotel' --limit 20 --format csv
              quire db query t.quire 'SELECT * FROM hotel WHERE stars > 3' --explain
            """
    )

    /// How rows are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, jsonl, csv
    }

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The SQL++ query.")
    var query: String

    @Option(name: .customLong("param"), help: "A parameter as NAME=VALUE (repeatable).")
    var parameters: [String] = []

    @Option(help: "Print at most this many rows.")
    var limit: Int?

    @Option(help: "Skip this many rows first.")
    var offset: Int = 0

    @Option(help: "table, json (one array), jsonl (one object a line) or csv.")
    var format: Format?

    @Flag(help: "Print the query plan instead of running it.")
    var explain = false

    @Flag(help: "Print rows as JSON Lines (the same as --format jsonl).")
    var json = false

    func validate() throws {
        _ = try values()
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative, not \(limit).") }
        guard offset >= 0 else { throw ValidationError("--offset must not be negative, not \(offset).") }
        if json, let format, format != .jsonl { throw ValidationError("--json and --format \(format) disagree.") }
    }

    /// The parameters, by name.
    private func values() throws -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for pair in parameters {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--param '\(pair)' is not NAME=VALUE.")
            }
            let text = String(pair[pair.index(after: equals)...])
            values[String(pair[..<equals])] = (try? JSONReader.parse(text)) ?? .string(text)
        }
        return values
    }

    func run() throws {
        let values = try values()
        try target.with { database in
            let compiled: Query
            do {
                compiled = try database.createQuery(query)
            } catch let error as QuireError {
                throw CommandFailure("The query is not valid SQL++: \(error.message)")
            }
            let unbound = compiled.parameterNames.filter { values[$0] == nil }
            guard unbound.isEmpty || explain else {
                let names = unbound.map { "$\($0)" }.joined(separator: ", ")
                throw CommandFailure(
                    "The query uses \(names) with no value: give \(unbound.map { "--param \($0)=VALUE" }.joined(separator: " "))"
                )
            }
            let unused = values.keys.filter { !compiled.parameterNames.contains($0) }.sorted()
            guard unused.isEmpty else {
                throw CommandFailure(
                    "The query has no parameter \(unused.map { "$\($0)" }.joined(separator: ", ")) for --param")
            }
            if !values.isEmpty {
                let bound = Parameters()
                for (name, value) in values { bound.setJSONValue(value, forName: name) }
                compiled.parameters = bound
            }
            if explain {
                CommandOutput.write(try compiled.explain() + "\n")
                return
            }
            try print(compiled, as: json ? .jsonl : format ?? .table)
        }
    }

    /// Streams the rows of `compiled` to standard output in `format`.
    private func print(_ compiled: Query, as format: Format) throws {
        let writer = try BufferedFileWriter.replacing("-")
        var table: TextTableStream?
        var names: [String] = []
        var skip = offset
        var remaining = limit ?? Int.max
        var count = 0
        func line(_ text: String) throws { try writer.append(Array((text + "\n").utf8)) }
        try compiled.forEachRow { columns in
            names = columns
            switch format {
            case .table: table = TextTableStream(headers: columns, writer: writer)
            case .csv: try line(columns.map(Self.csvField).joined(separator: ","))
            case .json: try writer.append(Array("[".utf8))
            case .jsonl: break
            }
        } row: { values in
            guard remaining > 0 else { return false }
            if skip > 0 {
                skip -= 1
                return true
            }
            count += 1
            remaining -= 1
            switch format {
            case .table: try table?.append(values.map(CommandJSONText.cell))
            case .csv: try line(values.map { Self.csvField(CommandJSONText.cell($0)) }.joined(separator: ","))
            case .json: try writer.append(Array(((count == 1 ? "\n" : ",\n") + (try Self.object(names, values))).utf8))
            case .jsonl: try line(try Self.object(names, values))
            }
            return remaining > 0
        }
        switch format {
        case .table:
            try table?.finish()
            try line("(\(count) \(count == 1 ? "row" : "rows"))")
        case .json: try line(count == 0 ? "]" : "\n]")
        case .csv, .jsonl: break
        }
        try writer.close()
    }

    /// A row as one line of canonical JSON, MISSING columns left out.
    private static func object(_ names: [String], _ values: [JSONValue?]) throws -> String {
        var members: [String: JSONValue] = [:]
        for (name, value) in zip(names, values) where value != nil { members[name] = value }
        return try CommandJSONText.compact(.object(members))
    }

    /// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break.
    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
