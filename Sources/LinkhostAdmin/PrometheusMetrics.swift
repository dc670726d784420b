import CoreMetrics
import LinkhostKit
import Prometheus

/// The Prometheus registry behind the admin listener's `/metrics`, and the swift-metrics factory
/// that records into it. Make one, give ``factory`` to `LinkhostServer` (its `metricsFactory`) and
/// the whole to `AdminServer`, which adds what it reads at each scrape; one per admin listener.
public final class PrometheusMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    /// Registers each of `ServingMetrics`' metrics with its help text, and the latency histogram
    /// with `ServingMetrics.latencyBounds`.
    public let factory: any MetricsFactory

    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        factory = DescribedMetricsFactory(
            registry: registry,
            help: Dictionary(uniqueKeysWithValues: ServingMetrics.descriptions.map { ($0.label, $0.help) }),
            timerBuckets: [ServingMetrics.latencyLabel: ServingMetrics.latencyBounds])
    }
}
