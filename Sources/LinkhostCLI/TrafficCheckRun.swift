import Foundation
import LinkLog
import LinkLogDatabases
import LinkhostKit

/// `check --against-log`: reads the window's distinct links from the log and checks the new
/// config's AASA files against them (`TrafficCheck`). Every input problem — the time, the log, each
/// config — is exit 2 with a message naming which.
struct TrafficCheckRun {
    let since: String
    let baseline: String
    let new: String
    let db: String?

    func run() throws -> TrafficCheck {
        let start: Int64
        do {
            start = try TimeBound.parse(since, now: LogRecord.currentTimeMilliseconds())
        } catch {
            throw CLIFailure.unusableInput("--against-log \(since): \(error)")
        }
        let current = try Self.load(baseline, flag: "--baseline")
        let proposed = try Self.load(new, flag: "--config")
        let path = db ?? current.log.databasePath
        guard LogDatabaseLocator.isURL(path) || FileManager.default.fileExists(atPath: path) else {
            throw CLIFailure.unusableInput("--db: no log database at \(path)")
        }
        let database = LogDatabaseLocator.database(at: path)
        let links: [LoggedLink]
        let total: Int
        do {
            let reader = try LogReader(database: database)
            links = try reader.links(since: start, until: nil)
            total = links.isEmpty ? try reader.totalRowCount() : 0
        } catch {
            throw CLIFailure.unusableInput("--db \(database.displayName): \(error)")
        }
        guard !links.isEmpty else {
            throw CLIFailure.unusableInput(
                total == 0
                    ? "--db \(database.displayName): the log has no rows, so there are no links to check"
                    : "--against-log \(since): the log \(database.displayName) has no page views or app opens since \(Self.utc(start)) (\(total) rows in all); give an earlier time"
            )
        }
        return TrafficCheck(links: links, baseline: current, new: proposed)
    }

    private static func load(_ path: String, flag: String) throws -> LinkhostConfiguration {
        do {
            return try ConfigurationLoader.load(path: path)
        } catch {
            throw CLIFailure.unusableInput("\(flag) \(path): the config cannot be used.\n\(error)")
        }
    }

    private static func utc(_ milliseconds: Int64) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
