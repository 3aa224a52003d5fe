extension Keyspaces {
    /// No keyspaces: what a listener serving a database folder starts from, before any of
    /// its databases is opened.
    init() {}
}
