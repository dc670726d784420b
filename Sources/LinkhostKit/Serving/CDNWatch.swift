import CDNCheck
import Dispatch
import Foundation
import Logging
import OrderedJSON
import Synchronization

/// `server.cdnCheck`: compares Apple's CDN copy of every served host's AASA file with the file
/// served — at start, every `intervalHours`, and again after a reload that changed a file — and
/// keeps the last result for the health report and the log.
///
/// Runs on Dispatch (a timer per wait, URLSession's callbacks), not on Swift tasks: like the rest
/// of the server it must not depend on the cooperative thread pool, which a process embedding the
/// server (the test runner, for one) may keep busy with blocking work.
final class CDNWatch: Sendable {
    private struct State {
        var settings: CDNCheckSettings?
        /// The hosts to check, with the files served for them.
        var targets: [CDNTarget] = []
        /// Bumped by every restart: a run or a wait of an earlier round sees it and ends.
        var round = 0
        var latest: CDNCheckReport?
        var isChecking = false
        var nextCheckAt: Date?
        /// Set by `stop()`: a reload that ends after the server began to stop starts nothing.
        var isStopped = false
    }

    private let state = Mutex(State())
    private let logger: Logger
    private let queue = DispatchQueue(label: "linkhost.cdn-check")

    init(logger: Logger) {
        var logger = logger
        logger[metadataKey: "component"] = "cdn-check"
        self.logger = logger
    }

    /// Starts checking `targets` with `settings` now (a run or a wait under way is abandoned), or
    /// stops when `settings` is `nil`. The last result is kept while the CDN stays the same.
    func restart(with settings: CDNCheckSettings?, targets: [CDNTarget] = []) {
        let round: Int? = state.withLock { state in
            guard !state.isStopped else { return nil }
            if state.settings?.cdnBase != settings?.cdnBase { state.latest = nil }
            state.settings = settings
            state.targets = targets
            state.round += 1
            state.nextCheckAt = nil
            state.isChecking = false
            return settings == nil ? nil : state.round
        }
        if let round {
            queue.async { [weak self] in self?.run(round) }
        }
    }

    /// The hosts the current round checks.
    var targets: [CDNTarget] { state.withLock { $0.targets } }

    /// Stops checking for good (the server is stopping).
    func stop() {
        restart(with: nil)
        state.withLock { $0.isStopped = true }
    }

    /// The state, `nil` while the check is off.
    var status: CDNCheckStatus? {
        state.withLock { state in
            state.settings.map { CDNCheckStatus(settings: $0, latest: state.latest, isChecking: state.isChecking, nextCheckAt: state.nextCheckAt) }
        }
    }

    /// The health report's `cdnCheck` section, `nil` while the check is off.
    var healthSection: JSONValue? {
        guard let status else { return nil }
        return .object([
            JSONMember("cdnBase", .string(status.settings.cdnBase)),
            JSONMember("intervalHours", .number(JSONNumber(status.settings.intervalHours))),
            JSONMember("checking", .bool(status.isChecking)),
            JSONMember("nextCheckAt", status.nextCheckAt.map { .string(ReloadHistory.timestamp($0)) } ?? .null),
            JSONMember("last", status.latest?.json ?? .null),
        ])
    }

    /// One run of round `round`, then the wait for the next.
    private func run(_ round: Int) {
        let run: (CDNCheckSettings, [CDNTarget])? = state.withLock { state in
            guard state.round == round, let settings = state.settings else { return nil }
            state.isChecking = true
            return (settings, state.targets)
        }
        guard let (settings, targets) = run else { return }
        settings.checker.check(targets) { [weak self] report in
            self?.finish(round, report, settings: settings)
        }
    }

    private func finish(_ round: Int, _ report: CDNCheckReport, settings: CDNCheckSettings) {
        let interval = settings.intervalHours * 3600
        let current = state.withLock { state in
            guard state.round == round else { return false }
            state.latest = report
            state.isChecking = false
            state.nextCheckAt = Date().addingTimeInterval(interval)
            return true
        }
        guard current else { return }
        log(report)
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in self?.run(round) }
    }

    private func log(_ report: CDNCheckReport) {
        let summary = report.hosts.map { "\($0.host) \($0.state.rawValue)" }.joined(separator: ", ")
        let message: Logger.Message = "CDN copies at \(report.base): \(summary.isEmpty ? "no host to check" : summary)"
        switch report.state {
        case .inSync: logger.info(message)
        case .differs, .missing: logger.notice(message)
        case .unchecked: logger.warning(message)
        }
    }
}

/// The periodic CDN check's state, as a value: what the health report shows and what a metrics exporter
/// reads (per host `state.metricValue` and `age`, the run's `checkedAt`).
public struct CDNCheckStatus: Sendable {
    public let settings: CDNCheckSettings
    /// The last finished run, `nil` before the first one ends.
    public let latest: CDNCheckReport?
    /// Whether a run is under way.
    public let isChecking: Bool
    /// When the next run is due, once one has ended.
    public let nextCheckAt: Date?
}
