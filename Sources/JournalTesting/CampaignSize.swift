import Foundation

/// How big the unit suites' randomized and exhaustive campaigns run: CI's bounded size, or the full size when
/// `JOURNAL_CAMPAIGNS=full` (README, "Tests"). Each campaign states both sizes where it calls this.
public enum CampaignSize {
    public static let isFull = ProcessInfo.processInfo.environment["JOURNAL_CAMPAIGNS"] == "full"

    /// `ci` in CI and a developer's `scripts/test`, `full` with `JOURNAL_CAMPAIGNS=full`.
    public static func ci(_ ci: Int, full: Int) -> Int { isFull ? full : ci }
}
