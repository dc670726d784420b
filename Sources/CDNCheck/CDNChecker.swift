import Foundation

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
        let startedAt = Date()
        let client = CDNClient(timeoutSeconds: timeoutSeconds)
        defer { client.close() }
        let checks = await withTaskGroup(of: (Int, CDNHostCheck).self) { group in
            for (index, target) in targets.enumerated() {
                group.addTask {
                    let address = url(for: target.host)
                    guard let url = URL(string: address) else {
                        return (index, CDNHostCheck(target: target, url: address, answer: .failure(CDNFetchFailure("\(address) is not a URL"))))
                    }
                    return (index, CDNHostCheck(target: target, url: address, answer: await client.fetch(url, host: target.host)))
                }
            }
            var results: [(Int, CDNHostCheck)] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return CDNCheckReport(base: base, checkedAt: startedAt, hosts: checks)
    }
}
