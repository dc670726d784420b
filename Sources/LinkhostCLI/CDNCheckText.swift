import AASAKit
import CDNCheck
import LinkLog

/// `cdn-check`'s answer for a person: per host its state and the CDN's `Age`/`Last-Modified`, and
/// for a copy that differs, what differs — apps, then rules (`+` served but not on the CDN, `-` on
/// the CDN but no longer served) — then a count and what to expect of the CDN.
///
/// Everything from the CDN (rules, failure reasons) is printed with control characters replaced:
/// a hostile answer must not drive the terminal.
struct CDNCheckText {
    let report: CDNCheckReport
    let skippedWildcards: [String]

    var text: String {
        var lines: [String] = []
        for check in report.hosts {
            lines.append("\(check.host) (site \(check.siteID)): \(Self.headline(check))")
            lines += check.differences.map(Self.lines(for:)).joined().map { "  " + TableFormatter.printable($0) }
        }
        for wildcard in skippedWildcards {
            lines.append("\(wildcard): skipped — the CDN keeps a copy per host; name one with --host")
        }
        lines.append("")
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func headline(_ check: CDNHostCheck) -> String {
        var freshness: [String] = []
        if let age = check.age { freshness.append("Age \(age) s") }
        if let lastModified = check.lastModified { freshness.append("Last-Modified \(TableFormatter.printable(lastModified))") }
        let suffix = freshness.isEmpty ? "" : " (\(freshness.joined(separator: ", ")))"
        let problem = TableFormatter.printable(check.problem ?? "")
        switch check.state {
        case .inSync:
            return (check.sameBytes ? "in sync — the CDN has the same bytes" : "in sync — the CDN has the same JSON, laid out differently") + suffix
        case .differs:
            return "differs — the CDN's copy is not the file linkhost serves" + suffix
        case .missing:
            return "no copy — \(problem)" + suffix
        case .unchecked:
            return "not checked — \(problem)"
        }
    }

    private static func lines(for difference: AASADifference) -> [String] {
        switch difference {
        case .appMissing(let section, let appID):
            return ["\(section): app \(appID) is served, not on the CDN"]
        case .appUnexpected(let section, let appID):
            return ["\(section): app \(appID) is on the CDN, no longer served"]
        case .rulesMissing(let appID, let rules):
            return ["applinks, app \(appID): rules served, not on the CDN:"] + rules.map { "  + \($0)" }
        case .rulesUnexpected(let appID, let rules):
            return ["applinks, app \(appID): rules on the CDN, no longer served:"] + rules.map { "  - \($0)" }
        case .rulesReordered(let appID):
            return ["applinks, app \(appID): the same rules in another order (the first rule that matches decides)"]
        case .sectionDiffers(let path):
            return ["\(path) differs"]
        }
    }

    private var summary: String {
        let counts = CDNHostState.allCases.map { state in (state, report.hosts.filter { $0.state == state }.count) }.filter { $0.1 > 0 }
        let words = counts.map { state, count in
            switch state {
            case .inSync: "\(count) in sync"
            case .differs: "\(count) \(count == 1 ? "differs" : "differ")"
            case .missing: "\(count) without a copy"
            case .unchecked: "\(count) not checked"
            }
        }
        var text = "\(words.joined(separator: ", ")) at \(report.base)."
        if report.state == .differs || report.state == .missing || report.hosts.contains(where: { $0.state == .differs || $0.state == .missing }) {
            text +=
                " The CDN fetches a changed file on its own schedule (Apple says within 24 hours) and devices get its copy, not the origin's; "
                + "for a development build, the entitlement's ?mode=developer fetches from the origin directly."
        }
        return text
    }
}
