/// A problem with a file being imported or exported: what was wrong, where, and what to do.
public struct InterchangeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: String?
    public var value: String?
    public var problem: String
    public var advice: String

    public init(file: String, line: Int?, column: String?, value: String?, problem: String, advice: String) {
        self.file = file; self.line = line; self.column = column; self.value = value; self.problem = problem; self.advice = advice
    }

    /// `in.csv line 14, column "Weight": "abc" is not a number; fix the cell or delete the row`
    public var description: String {
        var place = file
        if let line { place += " line \(line)" }
        if let column { place += (line == nil ? " " : ", ") + "column \"\(column)\"" }
        let subject = value.map { ": \"\($0)\" " } ?? " "
        return place + subject + problem + "; " + advice
    }
}
