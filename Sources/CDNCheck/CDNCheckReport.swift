import Foundation
import OrderedJSON

/// One run of the check over every host: a value that `cdn-check` prints, the health report shows, and a
/// metrics exporter can read (`state.metricValue` per host, `checkedAt`, each host's `age`).
public struct CDNCheckReport: Sendable {
    /// The CDN asked.
    public let base: String
    /// When the run started.
    public let checkedAt: Date
    public let hosts: [CDNHostCheck]

    public init(base: String, checkedAt: Date, hosts: [CDNHostCheck]) {
        self.base = base
        self.checkedAt = checkedAt
        self.hosts = hosts
    }

    /// The worst state of any host (in sync when there is none).
    public var state: CDNHostState { hosts.map(\.state).max() ?? .inSync }

    /// `cdn-check`'s exit status: 0 every host in sync, 1 one differs or has no copy, 2 one could
    /// not be checked (which outranks a difference: the answer is then incomplete).
    public var exitStatus: Int32 { state.exitStatus }

    /// The run's overall result in a word: `in-sync`, `out-of-sync` or `unchecked`.
    public var result: String {
        switch state {
        case .inSync: "in-sync"
        case .differs, .missing: "out-of-sync"
        case .unchecked: "unchecked"
        }
    }

    public var json: JSONValue {
        .object([
            JSONMember("cdnBase", .string(base)),
            JSONMember("checkedAt", .string(Self.timestamp(checkedAt))),
            JSONMember("result", .string(result)),
            JSONMember("hosts", .array(hosts.map(\.json))),
        ])
    }

    /// ISO 8601 in UTC with milliseconds, as every time linkhost writes in JSON.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
