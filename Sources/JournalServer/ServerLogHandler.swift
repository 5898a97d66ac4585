import Logging

/// The server's log lines: swift-log's `StreamLogHandler` on standard error, word for word, with metadata that
/// costs nothing to set.
///
/// `StreamLogHandler` formats all of its metadata again whenever one key is set, and Hummingbird sets a request id on
/// a copy of the server's logger for every request, so every request paid for a line that is almost never written:
/// about 2.7% of the server's CPU at 1,000 devices (SCALE-FIGURES.md §"What the devices cost"). This handler keeps the
/// metadata as set and, only for a line that is written, merges it as `StreamLogHandler` does (the logger's own, then
/// the metadata provider's, then the line's, each later one winning) and hands it with the line to a stream handler
/// that holds none of its own, which formats it.
public struct ServerLogHandler: LogHandler {
    private let stream: StreamLogHandler
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?

    public init(label: String) {
        self.init(stream: .standardError(label: label, metadataProvider: nil), metadataProvider: LoggingSystem.metadataProvider)
    }

    /// Lines to `output` instead (tests).
    init(label: String, output: any TextOutputStream & Sendable, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(stream: StreamLogHandler(label: label, stream: output, metadataProvider: nil), metadataProvider: metadataProvider)
    }

    private init(stream: StreamLogHandler, metadataProvider: Logger.MetadataProvider?) {
        self.stream = stream
        self.metadataProvider = metadataProvider
    }

    public var logLevel: Logger.Level = .info

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        var event = event
        event.metadata = merged
        stream.log(event: event)
    }
}
