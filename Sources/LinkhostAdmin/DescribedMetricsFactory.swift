import CoreMetrics
import Prometheus

/// A swift-metrics factory that records into a Prometheus registry and registers each metric with
/// its help text. swift-prometheus's own `PrometheusMetricsFactory` registers every metric without
/// one, while `/metrics` has a `# HELP` line for each family (and promtool's lint asks for it).
/// A label it has no text for is registered without.
///
/// A timer becomes a histogram of seconds, its upper bounds from `timerBuckets` (in seconds) where
/// given. It is kept as swift-prometheus's `ValueHistogram` of `Double`s rather than its
/// `DurationHistogram`: the exposition is the same, and recording, which runs for every request,
/// compares a `Double` per bucket instead of calling `Duration`'s 128-bit comparison.
struct DescribedMetricsFactory: MetricsFactory {
    let registry: PrometheusCollectorRegistry
    /// Help text by label.
    let help: [String: String]
    /// Histogram bounds in seconds, by timer label.
    let timerBuckets: [String: [Double]]

    /// For timers given no bounds: from a millisecond to ten seconds.
    static let defaultTimerBuckets: [Double] = [0.001, 0.01, 0.1, 1, 10]
    /// For aggregating recorders.
    static let defaultValueBuckets: [Double] = [1, 10, 100, 1_000, 10_000]

    private func descriptor(_ label: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: label, unitName: "", helpText: help[label] ?? "")
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        registry.makeCounter(descriptor: descriptor(label), labels: dimensions)
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        registry.makeGauge(descriptor: descriptor(label), labels: dimensions)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard aggregate else { return registry.makeGauge(descriptor: descriptor(label), labels: dimensions) }
        return registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: Self.defaultValueBuckets)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        SecondsHistogram(
            registry.makeValueHistogram(descriptor: descriptor(label), labels: dimensions, buckets: timerBuckets[label] ?? Self.defaultTimerBuckets))
    }

    func destroyCounter(_ handler: any CounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        if let counter = handler as? Prometheus.Counter { registry.unregisterCounter(counter) }
    }

    func destroyMeter(_ handler: any MeterHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
    }

    func destroyRecorder(_ handler: any RecorderHandler) {
        if let gauge = handler as? Prometheus.Gauge { registry.unregisterGauge(gauge) }
        if let histogram = handler as? ValueHistogram { registry.unregisterValueHistogram(histogram) }
    }

    func destroyTimer(_ handler: any TimerHandler) {
        if let timer = handler as? SecondsHistogram { registry.unregisterValueHistogram(timer.histogram) }
    }
}

/// A timer that records into a Prometheus histogram of seconds.
final class SecondsHistogram: TimerHandler {
    let histogram: ValueHistogram

    init(_ histogram: ValueHistogram) { self.histogram = histogram }

    func recordNanoseconds(_ duration: Int64) { histogram.record(Double(duration) / 1_000_000_000) }
}
