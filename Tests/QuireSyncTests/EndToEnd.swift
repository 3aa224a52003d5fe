import Testing

/// The replicator's end-to-end suites, each with a listener on loopback, run one at a time to
/// keep the load on a small machine (and on other suites' timing) low.
@Suite(.serialized) enum EndToEnd {}
