import LinkLog
import LinkLogDatabases
import OrderedJSON

/// What a reload found when it answered the links people used in the last days under the AASA files
/// of the config serving and of the one it was asked to serve (`TrafficCheck`, as `linkhost check
/// --against-log` does): how many links, which rules' links would stop opening the app, and how many
/// would start. A reload refuses the new config on it when `server.reload.refuseIfLinksStopOpening`.
public struct ReloadLinksCheck: Sendable {
    /// The days of log looked at.
    public let days: Int
    /// The comparison, `nil` when the log could not be read (`problem` says why).
    public let result: TrafficCheck?
    public let problem: String?
    /// How many link forms answered for the links (`LinkWindow`), `nil` when the log's rows did.
    public var forms: Int?

    /// Answers the links logged in the last `days` days under `serving` and `requested`; `nil`
    /// when the check is off or the server keeps no log. The window's forms answer when it has them
    /// and they suffice (`TrafficCheck.formsSuffice`); otherwise the log's rows do.
    static func run(serving: LinkhostConfiguration, requested: LinkhostConfiguration, now: Int64, window: LinkWindowKeeper?) -> ReloadLinksCheck? {
        let days = serving.server.reload.checkAgainstLogDays
        let log = serving.log
        guard days > 0, log.enabled else { return nil }
        let since = now - Int64(days) * 86_400_000
        if let forms = window?.forms(since: since, now: now), TrafficCheck.formsSuffice(forms, baseline: serving, new: requested) {
            var check = ReloadLinksCheck(days: days, result: TrafficCheck(links: forms, baseline: serving, new: requested), problem: nil)
            check.forms = forms.count
            return check
        }
        do {
            let database = LogDatabaseLocator.database(at: log.databasePath, secretKeyFile: log.secretKeyFile, spoolFile: log.spoolFile)
            let links = try LogReader(database: database).links(since: since, until: nil)
            return ReloadLinksCheck(days: days, result: TrafficCheck(links: links, baseline: serving, new: requested), problem: nil)
        } catch LogError.databaseMissing {
            // Nothing logged yet: nothing can stop opening the app.
            return ReloadLinksCheck(days: days, result: TrafficCheck(links: [], baseline: serving, new: requested), problem: nil)
        } catch {
            return ReloadLinksCheck(days: days, result: nil, problem: "the log could not be read: \(error)")
        }
    }

    /// Whether a logged link would stop opening the app.
    public var stopsAny: Bool { result?.stopsAny ?? false }

    /// One line for the server's log.
    public var summary: String {
        guard let result else { return "the logged links of the last \(days) days were not checked: \(problem ?? "")" }
        let stopping = result.stopping.reduce(0) { $0 + $1.links }
        let starting = result.starting.reduce(0) { $0 + $1.links }
        var text = "\(result.links) link\(result.links == 1 ? "" : "s") logged in the last \(days) days: \(stopping) would stop opening the app"
        if !result.stopping.isEmpty {
            let rules = result.stopping.map { [$0.siteID, $0.rule ?? "(no rule)"].compactMap { $0 }.joined(separator: " ") + " (\($0.links))" }
            text += " (" + rules.joined(separator: ", ") + ")"
        }
        return text + ", \(starting) would start"
    }

    /// For the health report: the window, the counts, and the rules whose links would stop opening the app.
    var json: JSONValue {
        var members = [JSONMember("days", .number(JSONNumber(days)))]
        if let result {
            let stopping = result.stopping.map { group in
                JSONValue.object([
                    JSONMember("site", group.siteID.map { .string($0) } ?? .null), JSONMember("rule", group.rule.map { .string($0) } ?? .null),
                    JSONMember("links", .number(JSONNumber(group.links))), JSONMember("hits", .number(JSONNumber(group.hits))),
                    JSONMember("example", .string(group.example)),
                ])
            }
            members += [
                JSONMember("links", .number(JSONNumber(result.links))),
                JSONMember("stopping", .array(stopping)),
                JSONMember("startingLinks", .number(JSONNumber(result.starting.reduce(0) { $0 + $1.links }))),
                JSONMember("answeredAs", .string(forms.map { "\($0) link forms" } ?? "logged rows")),
            ]
        } else {
            members.append(JSONMember("problem", .string(problem ?? "")))
        }
        return .object(members)
    }
}
