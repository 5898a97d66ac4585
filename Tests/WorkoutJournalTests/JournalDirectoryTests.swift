import Foundation
import Testing
import WorkoutJournal

/// Hostile user ids (RELIABILITY.md §"Privacy and hostile paths"): a user id comes from outside, so it can never name a
/// file outside the journal directory.
@Suite("User ids stay inside the journal directory")
struct JournalDirectoryTests {
    let directory = JournalDirectory(path: "/data/journals", device: "ph", clock: { t("2026-11-20T18:00:00.000Z") })

    @Test("an ordinary id becomes <path>/<id>.journal")
    func ordinary() throws {
        #expect(try directory.journalPath(user: "user_42") == "/data/journals/user_42.journal")
        #expect(try directory.journalPath(user: "sam.berg@example.com") == "/data/journals/sam.berg@example.com.journal")
        #expect(try JournalDirectory(path: "/data/", device: "ph", clock: { t("2026-11-20T18:00:00.000Z") }).journalPath(user: "u")
            == "/data/u.journal")
    }

    @Test("ids that could leave the directory are refused with a clear message", arguments: [
        ("", "user id \"\" cannot name a journal: it is empty"),
        ("..", "user id \"..\" cannot name a journal: it contains \"..\" or is \".\" (a user id must not lead out of the journal directory)"),
        ("../etc/passwd", "user id \"../etc/passwd\" cannot name a journal: it contains \"/\" (a user id must not lead out of the journal directory)"),
        ("a..b", "user id \"a..b\" cannot name a journal: it contains \"..\" or is \".\" (a user id must not lead out of the journal directory)"),
        (".", "user id \".\" cannot name a journal: it contains \"..\" or is \".\" (a user id must not lead out of the journal directory)"),
        ("a/b", "user id \"a/b\" cannot name a journal: it contains \"/\" (a user id must not lead out of the journal directory)"),
        ("/root", "user id \"/root\" cannot name a journal: it contains \"/\" (a user id must not lead out of the journal directory)"),
        ("a\\b", "user id \"a\\\\b\" cannot name a journal: it contains \"\\\" (a user id must not lead out of the journal directory)"),
        ("a\u{0}b", "user id \"a\\u0000b\" cannot name a journal: it contains a NUL byte"),
        ("a\nb", "user id \"a\\u000Ab\" cannot name a journal: it contains a control character"),
        ("a\u{7F}b", "user id \"a\\u007Fb\" cannot name a journal: it contains a control character"),
        (String(repeating: "x", count: 65), "user id \"\(String(repeating: "x", count: 65))\" cannot name a journal: it is 65 bytes long, more than 64"),
        (String(repeating: "x", count: 200), "user id \"\(String(repeating: "x", count: 80))…\" cannot name a journal: it is 200 bytes long, more than 64"),
    ])
    func refused(_ id: String, _ message: String) {
        #expect(JournalDirectory.problem(with: id)?.description == message)
        do {
            _ = try directory.journalPath(user: id)
            Issue.record("accepted \(id)")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("an id of exactly 64 bytes is accepted, 64 bytes of multi-byte UTF-8 too")
    func longestAccepted() throws {
        #expect(try directory.journalPath(user: String(repeating: "x", count: 64)).hasSuffix("/" + String(repeating: "x", count: 64) + ".journal"))
        #expect(JournalDirectory.problem(with: String(repeating: "é", count: 32)) == nil)
        #expect(JournalDirectory.problem(with: String(repeating: "é", count: 33))?.reason == "it is 66 bytes long, more than 64")
    }

    @Test("opening or reading the home page of a refused id touches no file and throws the same error")
    func openRefused() throws {
        let journals = JournalDirectory(path: try temporaryDirectory(), device: "ph", clock: { t("2026-11-20T18:00:00.000Z") })
        #expect(throws: JournalDirectory.problem(with: "x/y")!) { try journals.open(user: "x/y") }
        #expect(throws: JournalDirectory.problem(with: "a\nb")!) { try journals.homePage(user: "a\nb") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: journals.path) == [])
    }
}

/// One writer per journal in a process, by the process's own registry of open journals as well as the file's lock
/// (the only guard on Darwin, which has no open-file-description locks: FORMAT.md §9).
@Suite("One open journal per user in a process")
struct OneOpenJournalTests {
    @Test("a second open of the same user, by its id or by a path that resolves to the same file, is refused until the first closes")
    func secondOpenRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-open-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let journals = JournalDirectory(path: folder, device: "ph", clock: { t("2026-11-20T18:00:00.000Z") })
        let first = try journals.open(user: "ana")
        for second in [{ try journals.open(user: "ana") }, { try UserJournal.open(path: folder + "/./ana.journal", device: "wa") }] {
            let error = #expect(throws: JournalError.self) { _ = try second() }
            #expect(error?.code == "journal.locked")
            #expect(error?.message == "ana.journal: is already open for recording in this app; use the journal already open, or close it first")
        }
        first.close()
        let again = try journals.open(user: "ana")
        again.close()
    }
}
