import Foundation
import Quire
import QuireFixtures

/// Draws a build's progress on one terminal line, `[#####-----]  50%  1200/2400  inventory.hotel`,
/// redrawn in place, at most once per whole percent or stage change.
///
/// Use it only where a person watches: ``isWanted(environment:isTerminal:)`` says no in CI
/// (the `CI` variable is set) and when standard error is not a terminal.
package final class TerminalProgressBar: Sendable {
    private let width: Int
    private let write: @Sendable (String) -> Void
    /// What the line shows; held while drawing, so lines from several threads do not mix.
    private let lastDrawn = Locked<(percent: Int, label: String, ended: Bool)?>(nil)

    /// Makes a bar `width` characters wide that writes through `write` (standard error by
    /// default).
    package init(
        width: Int = 30, write: @escaping @Sendable (String) -> Void = TerminalProgressBar.writeToStandardError
    ) {
        self.width = max(10, width)
        self.write = write
    }

    /// Whether to show a bar: standard error is a terminal and `CI` is not set.
    package static func isWanted(
        environment: [String: String] = ProcessInfo.processInfo.environment, isTerminal: Bool = isatty(2) != 0
    ) -> Bool {
        isTerminal && (environment["CI"] ?? "").isEmpty
    }

    /// Redraws for `progress`; the ``FixtureBuildProgress/Stage/finished`` stage ends the line.
    package func update(_ progress: FixtureBuildProgress) {
        let percent = Int(progress.fraction * 100)
        let label: String
        switch progress.stage {
        case .loading(let collection): label = "loading \(collection)"
        case .indexing: label = "creating indexes"
        case .compacting: label = "compacting"
        case .packing: label = "packing"
        case .finished: label = "done"
        }
        draw(
            percent: percent, count: progress.documentsLoaded, total: progress.documentsTotal, label: label,
            ends: progress.stage == .finished)
    }

    /// Redraws for `count` of `total` items done, the current one under `label`
    /// (`quire db export` and `import` count documents).
    package func update(count: Int, total: Int, label: String) {
        draw(percent: total > 0 ? min(100, count * 100 / total) : 100, count: count, total: total, label: label)
    }

    /// Ends the line, if one was drawn and not ended yet.
    package func finish() {
        lastDrawn.withLock { lastDrawn in
            guard let drawn = lastDrawn, !drawn.ended else { return }
            lastDrawn?.ended = true
            write("\n")
        }
    }

    /// Redraws the line as `text`, without a bar, when it changed: for work with no total
    /// (`quire db push` and `pull` count documents and bytes) or its own counts (a download).
    package func show(_ text: String) {
        lastDrawn.withLock { lastDrawn in
            if let lastDrawn, lastDrawn.percent == -1, lastDrawn.label == text { return }
            lastDrawn = (-1, text, false)
            write("\r\(text)\u{1b}[K")
        }
    }

    /// Clears the line drawn, leaving the cursor at its start (so a message can be written in
    /// its place); ``finish()`` still ends it.
    package func clear() {
        lastDrawn.withLock { lastDrawn in
            guard let drawn = lastDrawn, !drawn.ended else { return }
            write("\r\u{1b}[K")
        }
    }

    private func draw(percent: Int, count: Int, total: Int, label: String, ends: Bool = false) {
        lastDrawn.withLock { lastDrawn in
            if let lastDrawn, lastDrawn.percent == percent, lastDrawn.label == label { return }
            lastDrawn = (percent, label, ends)
            let filled = width * percent / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            let percentText = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
            let line = "[\(bar)] \(percentText)%  \(count)/\(total)  \(label)"
            // "\r" returns to the line start, ESC[K clears what a longer previous line left.
            write("\r\(line)\u{1b}[K" + (ends ? "\n" : ""))
        }
    }

    /// Writes `text` to standard error unbuffered.
    package static let writeToStandardError: @Sendable (String) -> Void = { text in
        FileHandle.standardError.write(Data(text.utf8))
    }
}
