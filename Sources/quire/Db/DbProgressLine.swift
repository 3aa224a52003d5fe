import Foundation

/// A progress bar for export and import, `[#####-----]  50%  1200/2400  inventory.hotel`,
/// redrawn in place on standard error, at most once per whole percent or label change; drawn
/// only when standard output is a terminal (and `CI` is not set), so scripts and logs never see it.
final class DbProgressLine {
    private let total: Int
    private let isShown: Bool
    /// Items counted so far.
    private(set) var count = 0
    private var lastDrawn: (percent: Int, label: String)?
    private var isFinished = false

    /// A bar for `total` items, shown when `shown` (by default when standard output is interactive).
    init(total: Int, shown: Bool = DbOutput.isInteractive) {
        self.total = total
        isShown = shown
    }

    /// Counts one more item, under `label`.
    func advance(_ label: String) {
        count += 1
        draw(label)
    }

    /// Ends the line (once; later calls do nothing).
    func finish() {
        guard isShown, lastDrawn != nil, !isFinished else { return }
        isFinished = true
        FileHandle.standardError.write(Data("\n".utf8))
    }

    private func draw(_ label: String) {
        guard isShown else { return }
        let percent = total > 0 ? min(100, count * 100 / total) : 100
        if let lastDrawn, lastDrawn.percent == percent, lastDrawn.label == label { return }
        lastDrawn = (percent, label)
        let width = 30
        let filled = width * percent / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + String(percent)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percentText)%  \(count)/\(total)  \(label)\u{1b}[K".utf8))
    }
}
