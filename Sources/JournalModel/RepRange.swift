/// A rep prescription: `"8-12"`, `"5"`, `"5/3/1"`, `"30-60s"`.
public struct RepRange: Equatable, Sendable {
    public var lower: Int
    public var upper: Int

    public init(lower: Int, upper: Int) { self.lower = lower; self.upper = upper }

    /// Reads the numbers in `text`; the lowest is `lower` and the highest `upper`. Nil when there is none.
    public init?(_ text: String) {
        var numbers: [Int] = []
        var current = ""
        for character in text + " " {
            if character.isASCII && character.isNumber { current.append(character) } else if !current.isEmpty {
                if let n = Int(current) { numbers.append(n) }
                current = ""
            }
        }
        guard let low = numbers.min(), let high = numbers.max() else { return nil }
        lower = low
        upper = high
    }
}

extension RepRange {
    /// A prescription's `reps` text such as `"8-12"` or `"5"`; nil for nil or text without a number.
    public init?(_ text: String?) {
        guard let text else { return nil }
        self.init(text)
    }
}
