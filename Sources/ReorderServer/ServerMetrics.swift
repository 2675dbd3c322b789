#if Server  // the server is built with the `Server` trait only (Package.swift)
import CoreMetrics
import Prometheus
import ReorderPolicy
import Synchronization

/// The server's metrics, recorded through swift-metrics into a Prometheus registry that
/// `/metrics` prints. Handles are made once per label set and cached, so recording a request
/// costs a dictionary look-up, not an allocation.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` prints.
    public let registry = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory
    private let requests = Mutex<[String: CoreMetrics.Counter]>([:])
    private let latencies = Mutex<[String: CoreMetrics.Timer]>([:])
    private let decisions: [String: CoreMetrics.Counter]
    private let reloads: CoreMetrics.Counter
    private let reloadFailures: CoreMetrics.Counter
    private let loaded: CoreMetrics.Gauge
    private let tablesStored: CoreMetrics.Gauge
    private let tableBytes: CoreMetrics.Gauge
    private let tablesEvicted: CoreMetrics.Counter
    private let evictedSoFar = Mutex(0)

    /// Creates the metrics with their own registry (no global bootstrap, so tests can make many).
    public init() {
        var factory = PrometheusMetricsFactory(registry: registry)
        // From 50 µs: a single decision takes microseconds.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1),
            .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
            .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5),
        ]
        self.factory = factory
        var decisions: [String: CoreMetrics.Counter] = [:]
        for word in ["allowed", "retargeted", "rejected", "denied", "invalid"] {
            decisions[word] = CoreMetrics.Counter(label: "reorder_decisions_total", dimensions: [("decision", word)], factory: factory)
        }
        self.decisions = decisions
        reloads = CoreMetrics.Counter(label: "reorder_policy_reloads_total", factory: factory)
        reloadFailures = CoreMetrics.Counter(label: "reorder_policy_reload_failures_total", factory: factory)
        loaded = CoreMetrics.Gauge(label: "reorder_policies_loaded", factory: factory)
        tablesStored = CoreMetrics.Gauge(label: "reorder_tables_stored", factory: factory)
        tableBytes = CoreMetrics.Gauge(label: "reorder_table_memory_bytes", factory: factory)
        tablesEvicted = CoreMetrics.Counter(label: "reorder_tables_evicted_total", factory: factory)
    }

    /// The stored tables (docs/SERVER.md, "Stored tables"): how many, the bytes they count, and
    /// how many were evicted since the start.
    func tables(_ usage: (tables: Int, bytes: Int, evicted: Int)) {
        tablesStored.record(usage.tables)
        tableBytes.record(usage.bytes)
        let new = evictedSoFar.withLock { seen in
            defer { seen = max(seen, usage.evicted) }
            return max(0, usage.evicted - seen)
        }
        if new > 0 { tablesEvicted.increment(by: new) }
    }

    /// Counts a request by route (the pattern, never the raw path) and status, and records its latency.
    public func request(route: String, status: Int, nanoseconds: Int64) {
        let key = route + " " + String(status)
        let counter = requests.withLock { cache in
            if let c = cache[key] { return c }
            let c = CoreMetrics.Counter(label: "reorder_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            cache[key] = c
            return c
        }
        counter.increment()
        let timer = latencies.withLock { cache in
            if let t = cache[route] { return t }
            let t = CoreMetrics.Timer(label: "reorder_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            cache[route] = t
            return t
        }
        timer.recordNanoseconds(nanoseconds)
    }

    /// Counts decisions by word.
    package func decided(_ s: DecisionJSON.Summary) {
        for (word, n) in [("allowed", s.allowed), ("retargeted", s.retargeted), ("rejected", s.rejected), ("denied", s.denied), ("invalid", s.invalid)]
        where n > 0 {
            decisions[word]?.increment(by: n)
        }
    }

    /// Counts a reload that changed something, and whether it failed.
    public func reloaded(failed: Bool) {
        reloads.increment()
        if failed { reloadFailures.increment() }
    }

    /// How many policies are served.
    public func policiesLoaded(_ n: Int) { loaded.record(n) }

    /// The Prometheus text exposition.
    public func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }
}
#endif
