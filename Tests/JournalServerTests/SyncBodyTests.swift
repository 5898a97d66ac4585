import JournalSync
import Testing

@Suite("Sync bodies: a push's answer in the journal's own JSON, written and read back")
struct SyncBodyTests {
    @Test("a push's answer: keys sorted, ids escaped as the journal writes strings, read back whole")
    func pushAnswer() throws {
        let bytes = SyncBody.pushAnswer(acknowledged: ["ph-1", "ph-\"2"], stored: 1, cursor: SyncCursor(epoch: 2, position: 41))
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"acknowledged":["ph-1","ph-\"2"],"cursor":"2-41","stored":1}"#)
        #expect(try SyncBody.pushAnswer(bytes) == SyncClient.PushAnswer(acknowledged: ["ph-1", "ph-\"2"], stored: 1, cursor: "2-41"))
        let none = SyncBody.pushAnswer(acknowledged: [], stored: 0, cursor: .start)
        #expect(String(decoding: none, as: UTF8.self) == #"{"acknowledged":[],"cursor":"0","stored":0}"#)
    }

    @Test("an answer that is not a push's answer is refused, saying what is missing")
    func badAnswers() {
        #expect(throws: SyncBody.Problem("the server's push answer has no \"cursor\" string")) {
            try SyncBody.pushAnswer(Array(#"{"acknowledged":[],"stored":1}"#.utf8))
        }
        #expect(throws: SyncBody.Problem("the server's push answer has no \"acknowledged\" array")) {
            try SyncBody.pushAnswer(Array(#"{"stored":1,"cursor":"1-1"}"#.utf8))
        }
        #expect(throws: SyncBody.Problem("the server's push answer is a JSON array, not an object")) {
            try SyncBody.pushAnswer(Array("[]".utf8))
        }
        #expect(throws: SyncBody.Problem("the server's push answer's acknowledged[0] is number, not an event id (a string)")) {
            try SyncBody.pushAnswer(Array(#"{"acknowledged":[7],"cursor":"1-1","stored":1}"#.utf8))
        }
        #expect(throws: SyncBody.Problem.self) { try SyncBody.pushAnswer(Array("{".utf8)) }
    }
}
