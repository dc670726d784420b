import Foundation
import Synchronization

/// Asks the CDN for each host's file and compares it with the file served: `cdn-check`, and the
/// periodic check of `serve` (`server.cdnCheck`).
public struct CDNChecker: Sendable {
    /// Apple's CDN, which devices since iOS 14 fetch AASA files from.
    public static let appleBase = "https://app-site-association.cdn-apple.com"

    /// The CDN's base URL without a trailing slash; a host's file is at `<base>/a/v1/<host>`.
    public let base: String
    public let timeoutSeconds: Double

    public init(base: String = CDNChecker.appleBase, timeoutSeconds: Double = 10) {
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.timeoutSeconds = timeoutSeconds
    }

    /// Whether `text` can be a base: an `http` or `https` URL with a host and no query or fragment.
    public static func isUsableBase(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty
        else { return false }
        return components.query == nil && components.fragment == nil && components.user == nil
    }

    /// The URL the CDN serves `host`'s file at.
    public func url(for host: String) -> String { "\(base)/a/v1/\(host)" }

    /// Checks every target at once and reports them in the order given.
    public func check(_ targets: [CDNTarget]) async -> CDNCheckReport {
        await withCheckedContinuation { continuation in
            check(targets) { continuation.resume(returning: $0) }
        }
    }

    /// The same with a completion handler, which runs on a Dispatch queue once every host has
    /// answered or timed out. Nothing here needs Swift's cooperative threads, so the check of a
    /// server (`server.cdnCheck`) runs whatever its host process does with them.
    public func check(_ targets: [CDNTarget], completion: @escaping @Sendable (CDNCheckReport) -> Void) {
        let startedAt = Date()
        let client = CDNClient(timeoutSeconds: timeoutSeconds)
        let results = CheckResults(count: targets.count)
        let group = DispatchGroup()
        for (index, target) in targets.enumerated() {
            let address = url(for: target.host)
            guard let url = URL(string: address) else {
                results.set(index, CDNHostCheck(target: target, url: address, answer: .failure(CDNFetchFailure("\(address) is not a URL"))))
                continue
            }
            group.enter()
            client.fetch(url, host: target.host) { answer in
                results.set(index, CDNHostCheck(target: target, url: address, answer: answer))
                group.leave()
            }
        }
        let base = base
        group.notify(queue: .global()) {
            client.close()
            completion(CDNCheckReport(base: base, checkedAt: startedAt, hosts: results.all))
        }
    }
}

/// The checks of one run as they come in, in the targets' order.
private final class CheckResults: Sendable {
    private let checks: Mutex<[CDNHostCheck?]>

    init(count: Int) {
        checks = Mutex(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ check: CDNHostCheck) {
        checks.withLock { $0[index] = check }
    }

    var all: [CDNHostCheck] { checks.withLock { $0.compactMap { $0 } } }
}
