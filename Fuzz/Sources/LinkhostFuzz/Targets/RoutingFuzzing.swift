import AASAKit
import LinkRules
import LinkhostKit

/// Link routing (LinkRouter, PathTemplate) against Apple's matching of the AASA file generated from
/// the same rules (AASAMatcher): two paths that must agree. The first byte picks a fixture site,
/// the rest is a request target, split the way the server splits it. When a rule's page or a
/// broken link of a rule's values comes back, the device opens the app through that rule's own
/// component; when the router finds nothing (or a link missing what the rule needs), the file opens
/// nothing — unless the site's extra components decide first. Every rule's template is also
/// matched with its steps counted, which must stay linear in the path.
enum RoutingFuzzing {
    static let target = FuzzTarget(
        name: "routing",
        summary: "LinkRouter.route vs AASAMatcher on the generated AASA file of each fixture site",
        run: run
    )

    /// Each site with a generated file, and its matcher, built once.
    static let sites: [(site: SiteConfiguration, matcher: AASAMatcher)] = FuzzFixtures.sites.filter(\.aasaPolicy.isGenerated).map { site in
        do {
            return (site, AASAMatcher(try AASADocument(json: site.aasa.document)))
        } catch {
            FuzzReport.fail("fixture site \(site.id): its AASA file does not read: \(error)")
        }
    }

    static func run(_ bytes: [UInt8]) {
        let (site, matcher) = sites[Int(bytes.first ?? 0) % sites.count]
        let text = String(decoding: bytes.dropFirst(), as: UTF8.self)
        let target = text.hasPrefix("/") ? text : "/" + text
        let parts = HTTPRequestTargetParts(target)
        let route = site.router.route(rawPath: parts.rawPath, rawQuery: parts.rawQuery)
        // Each template's match: the shortcut for literal templates and the general matcher agree,
        // and the matcher's steps stay within the path's length times the template's literal bytes.
        for rule in site.router.rules {
            let counted = rule.path.matchCountingSteps(rawPath: parts.rawPath, caseSensitive: rule.caseSensitive)
            let bound = (parts.rawPath.utf8.count + 1) * (rule.path.literalByteCount + 1)
            FuzzReport.check(counted.steps <= bound, "\(counted.steps) steps (bound \(bound)) to match \(rule.path) on \(FuzzReport.shown(parts.rawPath))")
            FuzzReport.check(
                counted.captures == rule.path.match(rawPath: parts.rawPath, caseSensitive: rule.caseSensitive),
                "the two matchers of \(rule.path) differ on \(FuzzReport.shown(parts.rawPath))")
        }
        if case .page(let match) = route {
            FuzzReport.check(match.appURL.lowercased().hasPrefix(site.app.scheme.lowercased() + ":"), "app URL \(match.appURL) for \(FuzzReport.shown(target))")
        }

        // Only a target a URL can hold as it is: printable ASCII without a fragment or a space.
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !Array("#\"<>\\^`{|}".utf8).contains($0) }) else { return }
        let url = "https://\(site.primaryHost)\(target)"
        guard let result = try? matcher.match(url, options: AASAMatchOptions(domain: site.primaryHost)) else { return }
        let extra = site.aasaPolicy.extraComponentCount
        if let component = result.componentIndex, result.detailsIndex == 0, component < extra { return }
        let routed: String
        switch route {
        case .page(let match):
            routed = "page of \(match.rule.name)"
            expectMatch(result, rule: match.rule, site: site, url: url, routed: routed)
        case .badLink(let rule, let problem, _):
            routed = "broken link of \(rule.name) (\(problem))"
            switch problem {
            case .malformed, .repeated: expectMatch(result, rule: rule, site: site, url: url, routed: routed)
            case .missing, .wrongValue, .unexpected:
                FuzzReport.check(
                    result.decision == .none, "\(url): the router gives a \(routed), the file decides \(result.decision) by \(String(describing: result.rule))")
            }
        case .noRule:
            FuzzReport.check(result.decision == .none, "\(url): no rule routes it, the file decides \(result.decision) by \(String(describing: result.rule))")
        }
    }

    private static func expectMatch(_ result: AASAMatchResult, rule: LinkRule, site: SiteConfiguration, url: String, routed: String) {
        let expected = site.aasaPolicy.extraComponentCount + (site.router.rules.firstIndex(of: rule) ?? -1)
        FuzzReport.check(
            result.decision == .match && result.detailsIndex == 0 && result.componentIndex == expected,
            "\(url): the router gives the \(routed), the file decides \(result.decision) by \(String(describing: result.rule)), not component \(expected)")
    }
}
