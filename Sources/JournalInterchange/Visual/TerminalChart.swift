import JournalModel
/// Compact Unicode charts for terminals: one row of block characters per series (INTERCHANGE.md §"Charts").
public enum TerminalChart {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `▁▂▄▅▇█`: each value scaled between the series' minimum and maximum; the last `width` values when longer.
    public static func sparkline(_ values: [Double], width: Int = 60) -> String {
        let shown = values.suffix(width)
        guard let low = shown.min(), let high = shown.max() else { return "" }
        return String(shown.map { value in
            high == low ? blocks[3] : blocks[Int(min(7, max(0, Int64(saturating: ((value - low) / (high - low) * 7).rounded()))))]
        })
    }

    /// A labelled sparkline: `title`, the line, then first and last date with their values and the range.
    public static func render(_ points: [SVGChart.Point], title: String, unit: String, width: Int = 60) -> String {
        guard let first = points.suffix(width).first, let last = points.last else { return "\(title)\n(no data)" }
        let values = points.suffix(width).map(\.value)
        return [
            title,
            sparkline(values, width: width),
            "\(first.date) \(SVGChart.n(first.value)) \(unit) → \(last.date) \(SVGChart.n(last.value)) \(unit) (min \(SVGChart.n(values.min()!)), max \(SVGChart.n(values.max()!)), \(values.count) points)",
        ].joined(separator: "\n")
    }
}
