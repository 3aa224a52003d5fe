/// What a performance case measured: medians over its rounds, the ratio that decided it, and
/// for a scaling case the growth from the first size to the second.
package struct PerformanceMeasurement: Sendable, Hashable {
    /// One size's figures.
    package struct Size: Sendable, Hashable {
        /// Workload iterations.
        package var iterations: Int
        /// The threads they were shared among.
        package var threads: Int = 1
        /// Median workload time, in seconds.
        package var workload: Double
        /// Median baseline time, in seconds.
        package var baseline: Double
        /// Median of the rounds' workload ÷ baseline ratios.
        package var ratio: Double
    }

    /// The baseline's name.
    package var baselineName: String
    /// The figures at each size (one, or two for a scaling case).
    package var sizes: [Size]
    /// The ratio limit.
    package var maxRatio: Double
    /// Measured rounds per size.
    package var rounds: Int
    /// Uncounted rounds run first.
    package var warmup: Int
    /// Cost per iteration at the second size (or thread count) ÷ at the first (workload time),
    /// for a scaling case.
    package var growth: Double?
    /// The growth limit.
    package var maxGrowth: Double?
    /// For a case that times the runner on a suite: the cases the suite runs at each iteration.
    package var suiteCases: Int?

    /// The ratio that decides the case: the largest over the sizes.
    package var ratio: Double { sizes.map(\.ratio).max() ?? 0 }

    /// Whether it stays within its limits.
    package var withinLimits: Bool {
        ratio <= maxRatio && (growth ?? 0) <= (maxGrowth ?? .infinity)
    }

    /// One line for notes and failure messages.
    package var summary: String {
        var parts = sizes.map { size in
            String(
                format: "workload %.3f ms, baseline %@ %.3f ms, ratio %.2f (limit %.2f), %d iterations%@",
                size.workload * 1000, baselineName, size.baseline * 1000, size.ratio, maxRatio, size.iterations,
                size.threads > 1 ? " on \(size.threads) threads" : "")
        }
        if let growth, let maxGrowth {
            parts.append(String(format: "growth %.2f (limit %.2f)", growth, maxGrowth))
        }
        if let (runner, replayed) = casesPerSecond {
            parts.append(String(format: "%.0f cases/s through the runner, %.0f replayed", runner, replayed))
        }
        parts.append("median of \(rounds) rounds after \(warmup) warm-up")
        return parts.joined(separator: "; ")
    }

    /// Name-value pairs for reports (JUnit `<property>`, CTRF `extra`), times in milliseconds.
    package var properties: [(name: String, value: String)] {
        let first = sizes.first
        var result: [(String, String)] = [
            ("workload", String(format: "%.3f", (first?.workload ?? 0) * 1000)),
            ("baseline", String(format: "%.3f", (first?.baseline ?? 0) * 1000)),
            ("baselineName", baselineName),
            ("ratio", String(format: "%.3f", ratio)),
            ("limit", String(format: "%.3f", maxRatio)),
            ("rounds", String(rounds)),
            ("warmup", String(warmup)),
            ("iterations", String(first?.iterations ?? 0)),
        ]
        if sizes.contains(where: { $0.threads > 1 }) { result.append(("threads", String(first?.threads ?? 1))) }
        if sizes.count > 1, let last = sizes.last {
            result += [
                ("largeIterations", String(last.iterations)),
                ("largeWorkload", String(format: "%.3f", last.workload * 1000)),
                ("largeBaseline", String(format: "%.3f", last.baseline * 1000)),
            ]
            if last.threads != first?.threads { result.append(("largeThreads", String(last.threads))) }
        }
        if let growth, let maxGrowth {
            result += [("growth", String(format: "%.3f", growth)), ("growthLimit", String(format: "%.3f", maxGrowth))]
        }
        if let suiteCases, let (runner, replayed) = casesPerSecond {
            result += [
                ("cases", String(suiteCases)), ("casesPerSecond", String(format: "%.1f", runner)),
                ("replayedCasesPerSecond", String(format: "%.1f", replayed)),
            ]
        }
        return result
    }

    /// For a suite case: cases per second through the runner and replayed, from the medians.
    package var casesPerSecond: (runner: Double, replayed: Double)? {
        guard let suiteCases, let size = sizes.first, size.workload > 0, size.baseline > 0 else { return nil }
        let cases = Double(suiteCases * size.iterations)
        return (cases / size.workload, cases / size.baseline)
    }
}
