import CoreMetrics
import Metrics
import Prometheus

/// The Prometheus registry behind `/metrics`, bootstrapped once per process.
enum ServerMetrics {
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
    /// A counter of `registry` (a counter made before the metrics system is bootstrapped would count nowhere).
    static func counter(_ label: String, _ dimensions: [(String, String)] = []) -> CoreMetrics.Counter {
        _ = registry
        return Counter(label: label, dimensions: dimensions)
    }
    static let pushedEvents = counter("journal_sync_events_stored_total")
    static let pulledEvents = counter("journal_sync_events_pulled_total")
    static let refusals = counter("journal_sync_refusals_total")
    static let overloaded = counter("journal_sync_overloaded_total")
    /// Group commits by how their users were read (SCALE.md §"Known users"): `known`, planned on what the server
    /// last committed, or `locked`, read under the row locks; and the known groups a moved head sent back.
    static let knownGroups = counter("journal_sync_group_commits_total", [("path", "known")])
    static let lockedGroups = counter("journal_sync_group_commits_total", [("path", "locked")])
    static let headMoved = counter("journal_sync_known_head_moved_total")
}
