/// The names of a query's result columns, given as LiteCore gives them (its `WhatNode`):
/// a result row is a dictionary, so no two columns may share a name.
///
/// - An alias written in the query is the name; a second column with the same name is
///   invalidQuery, since one of the two values would be lost.
/// - An unaliased result takes its implied name (a property's last key); when that name is
///   taken it becomes `name #2`, `name #3`, ...
/// - A result with no implied name is `$1`, `$2`, ..., counted among such results only.
struct ResultNames {
    private var taken: Set<String> = []

    /// Claims the name of the next column: `alias` when the query gives one, otherwise a name
    /// derived from `implied`.
    mutating func claim(_ alias: String?, implied: String?) throws -> String {
        if let alias {
            guard taken.insert(alias).inserted else {
                throw QuireError(
                    .invalidQuery, "two results are named '\(alias)'; give one of them another name with AS")
            }
            return alias
        }
        if let implied, !implied.isEmpty, taken.insert(implied).inserted { return implied }
        var count = 1
        while true {
            let name = implied.map { $0.isEmpty ? "$\(count)" : "\($0) #\(count + 1)" } ?? "$\(count)"
            if taken.insert(name).inserted { return name }
            count += 1
        }
    }
}
