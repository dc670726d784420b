import Foundation

/// Runs that measure instead of check, or last too long for the test suite (soaks of hundreds of
/// thousands of requests): they live beside the tests whose code they share, but run only when
/// `LINKHOST_BENCH=1`, which `bash bench/test-runs` sets. Their suites are named `…Bench`.
public enum BenchRuns {
    public static let enabled = ProcessInfo.processInfo.environment["LINKHOST_BENCH"] == "1"
    /// Why a bench suite is skipped in an ordinary run.
    public static let skipped = "a measurement, not a test: bash bench/test-runs runs it"
}
