import ArgumentParser
import Foundation
import Quire

/// `quire db query DATABASE "SQL++" [--param NAME=VALUE ...] [--explain] [--json]`.
struct DbQueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Run a SQL++ query, or show its plan.",
        discussion: """
            Rows print as a table, or with --json as JSON Lines (one object per row). A --param \
            value is read as JSON when it is JSON (42, true, "x", [1,2]) and as a string otherwise; \
            the query names it $NAME.

            Example:
              quire db query t.quire 'SELECT * FROM hotel WHERE city=$c' --param c=Pisa
              quire db query t.quire 'SELECT * FROM hotel WHERE stars > 3' --explain
            """
    )

    @OptionGroup var target: DbDatabaseArgument

    @Argument(help: "The SQL++ query.")
    var query: String

    @Option(name: .customLong("param"), help: "A parameter as NAME=VALUE (repeatable).")
    var parameters: [String] = []

    @Flag(help: "Print the query plan instead of running it.")
    var explain = false

    @Flag(help: "Print rows as JSON Lines.")
    var json = false

    func run() throws {
        let values = try parameters.map { pair -> (String, JSONValue) in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--param '\(pair)' is not NAME=VALUE.")
            }
            let name = String(pair[..<equals])
            let text = String(pair[pair.index(after: equals)...])
            return (name, (try? JSONReader.parse(text)) ?? .string(text))
        }
        try target.with { database in
            let compiled: Query
            do {
                compiled = try database.createQuery(query)
            } catch let error as QuireError {
                throw DbFailure("The query is not valid SQL++: \(error.message)")
            }
            if !values.isEmpty {
                let bound = Parameters()
                for (name, value) in values { bound.setJSONValue(value, forName: name) }
                compiled.parameters = bound
            }
            if explain {
                DbOutput.write(try compiled.explain() + "\n")
                return
            }
            let results = try compiled.execute()
            if json {
                for row in results { try DbOutput.json(row.toJSONValue()) }
                return
            }
            var table = DbTable(headers: results.columnNames)
            var count = 0
            for row in results {
                table.rows.append(results.columnNames.indices.map { DbJSONText.cell(row.jsonValue(at: $0)) })
                count += 1
            }
            DbOutput.write(table.text + "(\(count) \(count == 1 ? "row" : "rows"))\n")
        }
    }
}
