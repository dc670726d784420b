import CDNCheck
import Foundation
import Logging
import OrderedJSON
import Synchronization

/// `server.cdnCheck`: compares Apple's CDN copy of every served host's AASA file with the file
/// served — at start, every `intervalHours`, and again after a reload that changed a file — and
/// keeps the last result for `/healthz` and the log.
final class CDNWatch: Sendable {
    private struct State {
        var settings: CDNCheckSettings?
        var task: Task<Void, Never>?
        var latest: CDNCheckReport?
        var isChecking = false
        var nextCheckAt: Date?
        /// Set by `stop()`: a reload that ends after the server began to stop starts nothing.
        var isStopped = false
    }

    private let state = Mutex(State())
    /// The hosts to check, from the serving set in use when a run starts.
    private let targets: @Sendable () -> [CDNTarget]
    private let logger: Logger

    init(targets: @escaping @Sendable () -> [CDNTarget], logger: Logger) {
        self.targets = targets
        var logger = logger
        logger[metadataKey: "component"] = "cdn-check"
        self.logger = logger
    }

    /// Starts checking with `settings` now (ending a run or a wait under way), or stops when `nil`.
    /// The last result is kept while the settings stay the same CDN.
    func restart(with settings: CDNCheckSettings?) {
        state.withLock { state in
            guard !state.isStopped else { return }
            state.task?.cancel()
            if state.settings?.cdnBase != settings?.cdnBase { state.latest = nil }
            state.settings = settings
            state.nextCheckAt = nil
            state.task = settings.map { settings in
                Task.detached { [weak self] in await self?.run(settings) }
            }
        }
    }

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

    /// `/healthz`'s `cdnCheck` section, `nil` while the check is off.
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

    private func run(_ settings: CDNCheckSettings) async {
        let interval = Duration.seconds(settings.intervalHours * 3600)
        while !Task.isCancelled {
            state.withLock { $0.isChecking = true }
            let report = await settings.checker.check(targets())
            guard !Task.isCancelled else { return }
            state.withLock { state in
                state.latest = report
                state.isChecking = false
                state.nextCheckAt = Date().addingTimeInterval(settings.intervalHours * 3600)
            }
            log(report)
            try? await Task.sleep(for: interval)
        }
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
