/// What ``FixtureVerifier`` found: one check per thing compared, each passed or failed.
public struct FixtureVerificationReport: Sendable, Equatable {
    /// One comparison.
    public struct Check: Sendable, Equatable {
        /// What was checked: an archive path, `blob sha1-…`, `collection scope.name`,
        /// `index scope.name/index`, `integrity`, `manifest`, `archive`.
        public var subject: String
        /// Why it failed; nil when it passed.
        public var problem: String?
        /// What was found, for a check that passed.
        public var detail: String?

        /// A failed check.
        public init(subject: String, problem: String) {
            self.subject = subject
            self.problem = problem
        }

        /// A passed check.
        public init(subject: String, detail: String? = nil) {
            self.subject = subject
            self.detail = detail
        }

        /// Whether it passed.
        public var passed: Bool { problem == nil }
    }

    /// The archive's file name.
    public var archive: String
    /// Every check, in the order made.
    public var checks: [Check]

    /// Makes a report.
    public init(archive: String, checks: [Check]) {
        self.archive = archive
        self.checks = checks
    }

    /// The checks that failed.
    public var failures: [Check] { checks.filter { !$0.passed } }

    /// True when there were checks and all passed.
    public var isValid: Bool { !checks.isEmpty && failures.isEmpty }

    /// The report as lines of text: `ok` or `FAIL`, the subject, the detail or the problem,
    /// then a verdict.
    public var text: String {
        var lines = ["Verifying \(archive)"]
        for check in checks {
            let note = check.problem ?? check.detail
            lines.append("  \(check.passed ? "ok  " : "FAIL") \(check.subject)\(note.map { ": \($0)" } ?? "")")
        }
        let count = failures.count
        lines.append(
            isValid
                ? "\(archive) matches its manifest (\(checks.count) checks)."
                : "\(archive) does NOT match its manifest: \(count) problem\(count == 1 ? "" : "s").")
        return lines.joined(separator: "\n") + "\n"
    }
}
