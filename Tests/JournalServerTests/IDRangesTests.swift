import JournalEvents
@testable import JournalServer
import Testing

/// `IDRanges` (`journal_batches.id_ranges`, SYNC.md §"Schema"): what a push trusts to skip a sealed batch's ids.
@Suite("A batch's id ranges: written from its ids, read back, and never wrong about an id it holds")
struct IDRangesTests {
    @Test("ranges per device tag, in tag order, counters in base 36")
    func text() throws {
        let ranges = try #require(IDRanges(ids: ["ph-a", "watch-3", "ph-1", "ph-e7", "watch-9", "ipad_2-10"]))
        #expect(ranges.text == "ipad_2:10-10 ph:1-e7 watch:3-9")
        #expect(IDRanges(text: ranges.text) == ranges)
        // A tag may hold dashes: the counter follows the id's last one.
        #expect(IDRanges(ids: ["my-phone-1", "my-phone-z"])?.text == "my-phone:1-z")
    }

    @Test("a batch with an id the form cannot write has no ranges; text it would not write is refused")
    func none() {
        #expect(IDRanges(ids: ["ph-1", "PH-2"]) == nil)
        #expect(IDRanges(ids: ["ph-1", "nodash"]) == nil)
        #expect(IDRanges(ids: ["ph-01"]) == nil)
        #expect(IDRanges(ids: ["ph:x-1"]) == nil)
        for text in ["ph:1-e7  watch:3-9", "ph:9-1", "watch:3-9 ph:1-e7", "ph:1", "ph:01-2", "PH:1-2", "ph:1-2-3", ":1-2"] {
            #expect(IDRanges(text: text) == nil, "\(text.debugDescription) was read")
        }
        #expect(IDRanges(text: "")?.spans == [])
    }

    @Test("may hold: every id it was made from, and no id past a range or of another tag")
    func mayHold() throws {
        let ids = ["ph-1", "ph-5", "ph-z", "watch-3"]
        let ranges = try #require(IDRanges(ids: ids))
        for id in ids { #expect(ranges.mayHold(try #require(EventID(id)))) }
        #expect(ranges.mayHold(try #require(EventID("ph-7"))))   // inside a range: the ids frame decides
        #expect(!ranges.mayHold(try #require(EventID("ph-10"))))  // the live workout's next event
        #expect(!ranges.mayHold(try #require(EventID("watch-2"))))
        #expect(!ranges.mayHold(try #require(EventID("tab-1"))))
    }
}
