import JournalEvents

/// The summary in a projection snapshot (`<journal>.snapshot`): the counts of what was read. The workouts, sets and
/// volume are not stored: they are the ledger's (`describing(_:)`), and the ledger is in the snapshot too.
extension ReplaySummary: Codable {
    /// Bump whenever `apply(_:)` or the stored properties change (snapshots of another version are rebuilt).
    /// 2: an open workout's sets are a list in completion order (`fold`'s `OpenSet` array), no longer sorted.
    /// 3: only the counts of what was read; workouts, sets and volume come from the ledger.
    public static let snapshotVersion = 3

    enum CodingKeys: String, CodingKey {
        case events, unknownEvents, firstActivity, lastActivity, lastSeq
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        events = try c.decode(Int.self, forKey: .events)
        unknownEvents = try c.decode(Int.self, forKey: .unknownEvents)
        firstActivity = try c.decodeIfPresent(Timestamp.self, forKey: .firstActivity)
        lastActivity = try c.decodeIfPresent(Timestamp.self, forKey: .lastActivity)
        lastSeq = try c.decode(Int.self, forKey: .lastSeq)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(unknownEvents, forKey: .unknownEvents)
        try c.encodeIfPresent(firstActivity, forKey: .firstActivity)
        try c.encodeIfPresent(lastActivity, forKey: .lastActivity)
        try c.encode(lastSeq, forKey: .lastSeq)
    }
}
