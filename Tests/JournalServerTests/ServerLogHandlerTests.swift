import Logging
import NIOConcurrencyHelpers
import Testing
@testable import JournalServer

@Suite("ServerLogHandler: the server's log lines are StreamLogHandler's, with metadata set for free")
struct ServerLogHandlerTests {
    /// Collects what a handler writes.
    struct Lines: TextOutputStream, Sendable {
        let text = NIOLockedValueBox("")
        func write(_ string: String) { text.withLockedValue { $0 += string } }
    }

    /// A line without its timestamp (the first word): the two handlers may write theirs a second apart.
    func untimed(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
    }

    /// The lines each handler writes for the same calls, without their timestamps.
    func lines(provider: Logger.MetadataProvider?) -> (ours: [String], theirs: [String]) {
        let ours = Lines(), theirs = Lines()
        var server = Logger(label: "journal-server") { ServerLogHandler(label: $0, output: ours, metadataProvider: provider) }
        var stream = Logger(label: "journal-server") { StreamLogHandler(label: $0, stream: theirs, metadataProvider: provider) }
        func exercise(_ logger: inout Logger) {
            logger.info("no metadata")
            logger.debug("below the level: not written")
            logger[metadataKey: "hb.request.id"] = "7"
            logger[metadataKey: "a.first"] = "1"
            logger.warning("two keys", metadata: ["b.line": "x", "hb.request.id": "8"])
            logger[metadataKey: "a.first"] = nil
            logger.error("one key left")
        }
        exercise(&server)
        exercise(&stream)
        return (untimed(ours.text.withLockedValue { $0 }), untimed(theirs.text.withLockedValue { $0 }))
    }

    @Test("the same lines as StreamLogHandler: metadata set on the logger, given with a line, and none")
    func sameLines() {
        let (lines, theirs) = lines(provider: nil)
        #expect(lines == theirs)
        #expect(lines == [
            "info journal-server: [JournalServerTests] no metadata",
            "warning journal-server: a.first=1 b.line=x hb.request.id=8 [JournalServerTests] two keys",
            "error journal-server: hb.request.id=7 [JournalServerTests] one key left",
        ])
    }

    @Test("with a metadata provider, the same precedence as StreamLogHandler: the logger's, then the provider's, then the line's")
    func provider() {
        let (lines, theirs) = lines(provider: Logger.MetadataProvider { ["c.provided": "2", "hb.request.id": "p"] })
        #expect(lines == theirs)
        #expect(lines == [
            "info journal-server: c.provided=2 hb.request.id=p [JournalServerTests] no metadata",
            "warning journal-server: a.first=1 b.line=x c.provided=2 hb.request.id=8 [JournalServerTests] two keys",
            "error journal-server: c.provided=2 hb.request.id=p [JournalServerTests] one key left",
        ])
    }
}
