extension Connection {
    /// What SQLite's `PRAGMA integrity_check` finds wrong with the file; empty when it is sound.
    package func integrityProblems() throws -> [String] {
        let rows = try query("PRAGMA integrity_check") { $0.text(at: 0) ?? "" }
        return rows == ["ok"] ? [] : rows
    }
}
