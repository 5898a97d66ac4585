import JournalEvents

/// The sync protocol's facts that both ends need (SYNC.md §"Protocol"): paths, limits, the cursor,
/// and the JSON bodies of push and pull. The server (`JournalServer`) and the client
/// (`SyncClient`) both use these; neither spells them out again.
public enum SyncProtocol {
    /// The delay of a `Retry-After` header in the delay-seconds form (RFC 9110 §10.2.3: digits only); nil for an
    /// HTTP date or anything else, which the client then ignores.
    public static func retryAfter(_ value: String) -> Duration? {
        let digits = value.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return .seconds(digits.reduce(0) { $0 * 10 + Int($1 - 0x30) })
    }

    /// Largest request body the server reads, in bytes.
    public static let maximumBodyBytes = 4 << 20
    /// Largest answer body the client reads, in bytes (a pull page of `maximumPullEvents` long events fits).
    public static let maximumAnswerBytes = 64 << 20
    /// Most events in one push.
    public static let maximumPushEvents = 1000
    /// Most events in one pull page (the default and the ceiling of `limit`).
    public static let maximumPullEvents = 2000
    /// The longest a pull may wait for new events (`wait=SECONDS`, SYNC.md §"Waiting for new events"): under the
    /// client's 60 s request timeout and the server's 60 s idle timeout, with room for a proxy's 30 s.
    public static let maximumPullWaitSeconds = 25
    /// User ids: 1 to 64 of `A-Z a-z 0-9 . _ @ -`.
    public static let maximumUserLength = 64

    public static func isValidUser(_ user: String) -> Bool {
        guard !user.isEmpty, user.utf8.count <= maximumUserLength else { return false }
        return user.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2E || byte == 0x5F || byte == 0x40 || byte == 0x2D
        }
    }

    /// `/v1/journals/{user}/events`: POST pushes, GET pulls.
    public static func eventsPath(user: String) -> String { "/v1/journals/\(user)/events" }

    /// The bytes a URL's query name or value, or a token or id inside a link, keeps as they are: RFC 3986's
    /// unreserved characters.
    public static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    /// The bytes a URL's path keeps: the unreserved characters, the sub-delimiters, `:`, `@` and `/`.
    public static let pathKept = unreserved.union("!$&'()*+,;=:@/".utf8)

    /// `text` with every UTF-8 byte outside `kept` written as `%XX`: the one percent-encoding of the client's
    /// requests and the server's links (Foundation's `addingPercentEncoding` on Linux goes through NSString and cost
    /// the load generator more than the URLComponents it was to replace, SCALE-FIGURES.md §"What the devices cost").
    public static func percentEncoded(_ text: String, keeping kept: Set<UInt8>) -> String {
        if text.utf8.allSatisfy(kept.contains) { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if kept.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Where a device is in a user's server journal: the server's position (events stored so far) in an
/// epoch (bumped when the server's copy is erased, so that older cursors are refused as unknown).
/// Written `<epoch>-<position>`; the start of any journal is `0`.
public struct SyncCursor: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var epoch: Int64
    public var position: Int64

    public init(epoch: Int64, position: Int64) { self.epoch = epoch; self.position = position }

    /// Before the first event, in whatever epoch the server is in.
    public static let start = SyncCursor(epoch: 0, position: 0)
    public var isStart: Bool { position == 0 && epoch == 0 }

    public init?(_ text: String) {
        if text == "0" || text.isEmpty { self = .start; return }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let epoch = Int64(parts[0]), let position = Int64(parts[1]), epoch > 0, position >= 0 else { return nil }
        self.epoch = epoch
        self.position = position
    }

    public var description: String { isStart ? "0" : "\(epoch)-\(position)" }
}

/// The bodies of the protocol, as bytes (the journal's own JSON: events keep their key order and bytes).
public enum SyncBody {
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// `{"events":[…]}`: a push.
    public static func push(_ events: [Event]) -> [UInt8] {
        var out = Array(#"{"events":["#.utf8)
        for (index, event) in events.enumerated() {
            if index > 0 { out.append(0x2C) }
            EventCodec.encode(event, into: &out)
        }
        out += Array("]}".utf8)
        return out
    }

    /// The events of a push body, each decoded by the journal's own codec. Throws with the index
    /// of the first event that is not one.
    public static func events(ofPush body: [UInt8]) throws(Problem) -> [Event] {
        let value: JSONValue
        do { value = try JSONParser.parse(body) } catch {
            throw Problem("the body is not JSON: \(error.reason) at byte \(error.offset)")
        }
        guard case .object(let object) = value else { throw Problem("the body must be a JSON object {\"events\": [...]}, found \(value.kindName)") }
        guard let list = object["events"] else { throw Problem("the body has no \"events\" array") }
        guard case .array(let items) = list else { throw Problem("\"events\" must be an array, found \(list.kindName)") }
        var events: [Event] = []
        events.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard case .object = item else { throw Problem("events[\(index)] must be an object, found \(item.kindName)") }
            do { events.append(try EventCodec.decode(item)) } catch {
                throw Problem("events[\(index)]: \(error.description)")
            }
        }
        return events
    }

    /// `{"acknowledged":[…],"cursor":"…","stored":N}`: a push's answer (keys sorted).
    public static func pushAnswer(acknowledged: [String], stored: Int, cursor: SyncCursor) -> [UInt8] {
        var out = Array(#"{"acknowledged":["#.utf8)
        for (index, id) in acknowledged.enumerated() {
            if index > 0 { out.append(0x2C) }
            JSONWriter.writeString(id, into: &out)
        }
        out += Array(#"],"cursor":"#.utf8)
        JSONWriter.writeString(cursor.description, into: &out)
        out += Array(#","stored":\#(stored)}"#.utf8)
        return out
    }

    /// A push's answer, read back.
    public static func pushAnswer(_ body: [UInt8]) throws(Problem) -> SyncClient.PushAnswer {
        let value: JSONValue
        do { value = try JSONParser.parse(body) } catch { throw Problem("the server's push answer is not JSON: \(error.reason)") }
        guard case .object(let object) = value else { throw Problem("the server's push answer is a JSON \(value.kindName), not an object") }
        guard case .array(let items)? = object["acknowledged"] else { throw Problem("the server's push answer has no \"acknowledged\" array") }
        guard let stored = object["stored"]?.intValue else { throw Problem("the server's push answer has no \"stored\" count") }
        guard let cursor = object["cursor"]?.stringValue else { throw Problem("the server's push answer has no \"cursor\" string") }
        var acknowledged: [String] = []
        acknowledged.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            guard let id = item.stringValue else {
                throw Problem("the server's push answer's acknowledged[\(index)] is \(item.kindName), not an event id (a string)")
            }
            acknowledged.append(id)
        }
        return SyncClient.PushAnswer(acknowledged: acknowledged, stored: stored, cursor: cursor)
    }

    /// `{"cursor":"…","more":…,"events":[…]}`: a pull page.
    public static func page(events: [[UInt8]], cursor: SyncCursor, more: Bool) -> [UInt8] {
        var out = Array(#"{"cursor":""#.utf8) + Array(cursor.description.utf8) + Array(#"","more":"#.utf8)
        out += Array((more ? "true" : "false").utf8)
        out += Array(#","events":["#.utf8)
        for (index, line) in events.enumerated() {
            if index > 0 { out.append(0x2C) }
            out += line
        }
        out += Array("]}".utf8)
        return out
    }

    public struct Page: Sendable {
        public var events: [Event]
        public var cursor: SyncCursor
        public var more: Bool
    }

    public static func page(_ body: [UInt8]) throws(Problem) -> Page {
        let value: JSONValue
        do { value = try JSONParser.parse(body) } catch { throw Problem("the server's pull answer is not JSON: \(error.reason)") }
        guard case .object(let object) = value, let cursorText = object["cursor"]?.stringValue,
              let cursor = SyncCursor(cursorText), let more = object["more"]?.boolValue,
              case .array(let items)? = object["events"] else {
            throw Problem("the server's pull answer lacks cursor, more or events")
        }
        var events: [Event] = []
        for (index, item) in items.enumerated() {
            do { events.append(try EventCodec.decode(item)) } catch { throw Problem("the server's event \(index): \(error.description)") }
        }
        return Page(events: events, cursor: cursor, more: more)
    }
}

/// Account erasure (SYNC.md §"Account erasure"): the one rule the server applies to a push and `journal sync`
/// applies to a device's journal.
public enum AccountErasure {
    /// Where in `order` its last erasure is, or nil when nothing in it erases. An erasure is a `data.erased` (the
    /// marker `journal erase`, `UserJournal.eraseAllData()`, writes), or a `data.cleared` that follows an
    /// `account.deleted` or `data.erased` of `order` not erased before it. `order` is the order in which the journal's
    /// holder learnt of each event, never their `at`: on the server, what it stores and then what a push adds, in the
    /// push's order; on a device, what it held before a pull and then what the pull brought (SYNC.md §"Account
    /// erasure").
    public static func lastErasure<Events: Collection>(in order: Events) -> Events.Index? where Events.Element == Event {
        var last: Events.Index?, deletion = false
        for index in order.indices {
            switch order[index].knownType {
            case .dataErased: last = index; deletion = true
            case .accountDeleted: deletion = true
            case .dataCleared where deletion: last = index; deletion = false
            default: break
            }
        }
        return last
    }

    /// What remains of `order` (as `lastErasure` reads it) once its erasures have run: the events from its last
    /// erasure on, that erasure included; all of `order` when nothing in it erases.
    public static func survivors<Events: Collection>(of order: Events) -> Events.SubSequence where Events.Element == Event {
        order[(lastErasure(in: order) ?? order.startIndex)...]
    }

    /// Whether `event` is of a type that can erase (`data.erased`, `data.cleared`): a push without one erases
    /// nothing, and the server need not read the stored journal to find out.
    public static func mayTrigger(_ event: Event) -> Bool {
        event.knownType == .dataErased || event.knownType == .dataCleared
    }
}
