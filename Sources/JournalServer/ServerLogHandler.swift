import Logging

/// The server's log lines: swift-log's `StreamLogHandler` on standard error, word for word, with metadata that
/// costs nothing to set.
///
/// `StreamLogHandler` formats all of its metadata again whenever one key is set, and Hummingbird sets a request id on
/// a copy of the server's logger for every request, so every request paid for a line that is almost never written:
/// about 2.7% of the server's CPU at 1,000 devices (SCALE.md §"What the devices cost"). This handler keeps the
/// metadata as set and hands it to the stream handler only with a line that is written, where the stream handler
/// formats it as its own.
public struct ServerLogHandler: LogHandler {
    private var stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]

    public init(label: String) {
        stream = .standardError(label: label)
    }

    /// Lines to `output` instead (tests).
    init(label: String, output: any TextOutputStream & Sendable) {
        stream = StreamLogHandler(label: label, stream: output)
    }

    public var logLevel: Logger.Level {
        get { stream.logLevel }
        set { stream.logLevel = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { stream.metadataProvider }
        set { stream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var event = event
        if !metadata.isEmpty {
            event.metadata = metadata.merging(event.metadata ?? [:]) { _, explicit in explicit }
        }
        stream.log(event: event)
    }
}
