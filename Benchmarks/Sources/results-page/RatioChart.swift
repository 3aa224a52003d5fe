import Foundation

/// A horizontal bar chart of ratios on a logarithmic axis, as standalone SVG: each bar runs
/// from 1 (as fast as the baseline) to the ratio, green when it meets its target (or is below
/// 1 when it has none), red otherwise; a target is a dark tick on its row.
struct RatioChart {
    struct Row {
        var label: String
        var ratio: Double
        var target: Double?
    }

    let rows: [Row]

    private let labelWidth = 290.0
    private let plotWidth = 420.0
    private let rowHeight = 24.0
    private let top = 48.0
    private let bottom = 40.0
    private let smallest = 0.01
    private let largest = 10.0

    private func x(_ ratio: Double) -> Double {
        let clamped = min(max(ratio, smallest), largest)
        let decades = log10(largest) - log10(smallest)
        return labelWidth + (log10(clamped) - log10(smallest)) / decades * plotWidth
    }

    func svg() -> String {
        let width = labelWidth + plotWidth + 70
        let height = top + Double(rows.count) * rowHeight + bottom
        var parts: [String] = []
        parts.append(
            ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(format(width))" height="\##(format(height))" viewBox="0 0 \##(format(width)) \##(format(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##
        )
        parts.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        parts.append(
            ##"<text x="10" y="20" font-size="14" font-weight="bold">Quire's median time ÷ baseline's (log scale; left of 1 = Quire faster)</text>"##
        )
        let plotBottom = top + Double(rows.count) * rowHeight
        for tick in [0.01, 0.1, 0.5, 1, 2, 10] {
            let position = x(tick)
            let stroke = tick == 1 ? "#333" : "#ddd"
            parts.append(
                ##"<line x1="\##(format(position))" y1="\##(format(top - 6))" x2="\##(format(position))" y2="\##(format(plotBottom))" stroke="\##(stroke)"/>"##
            )
            parts.append(
                ##"<text x="\##(format(position))" y="\##(format(plotBottom + 16))" text-anchor="middle" fill="#555">\##(tickLabel(tick))</text>"##
            )
        }
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let start = x(1)
            let end = x(row.ratio)
            let good = row.ratio <= (row.target ?? 1)
            let color = good ? "#3a9b4a" : "#d0463b"
            parts.append(
                ##"<text x="\##(format(labelWidth - 8))" y="\##(format(y + 15))" text-anchor="end">\##(escape(row.label))</text>"##
            )
            parts.append(
                ##"<rect x="\##(format(min(start, end)))" y="\##(format(y + 4))" width="\##(format(max(abs(end - start), 1)))" height="\##(format(rowHeight - 8))" fill="\##(color)"/>"##
            )
            if let target = row.target {
                let mark = x(target)
                parts.append(
                    ##"<line x1="\##(format(mark))" y1="\##(format(y + 1))" x2="\##(format(mark))" y2="\##(format(y + rowHeight - 1))" stroke="#111" stroke-width="2"/>"##
                )
            }
            let valueX = max(start, end) + 6
            parts.append(
                ##"<text x="\##(format(valueX))" y="\##(format(y + 15))" fill="#333">\##(row.ratio < 0.1 ? String(format: "%.3f", row.ratio) : String(format: "%.2f", row.ratio))</text>"##
            )
        }
        parts.append(
            ##"<text x="10" y="\##(format(height - 8))" fill="#555">Dark ticks: targets (× SQLite: batch save 1.8, of hotels 1.2; reads and indexed queries 1.3, reads on two threads 1.5; fixture build 1.5, install 2; peak memory 1.5; GRDB 1 ×)</text>"##
        )
        parts.append("</svg>")
        return parts.joined(separator: "\n") + "\n"
    }

    private func format(_ value: Double) -> String { String(format: "%.1f", value) }

    private func tickLabel(_ tick: Double) -> String {
        tick < 1 ? String(tick) : String(Int(tick))
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
