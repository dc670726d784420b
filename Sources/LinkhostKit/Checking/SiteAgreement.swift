import AASAKit
import LinkRules
import OrderedJSON

/// Proves that a site's AASA file and its fallback routes agree, using Apple's matching rules:
///
/// - **LH001** every example of every rule opens the app (the served file matches it);
/// - **LH002** in a generated file, it does so through that rule's own component, not an earlier one;
/// - **LH003** every component that opens URLs opens some URL a link rule serves (a page or a broken
///   link of a rule, never a 404) — unless the config says `aasa.allowComponentsWithoutPages`.
///
/// The third check probes each component with a sample URL built from its patterns (`?*` → `x`,
/// `*` → nothing, a variable → its first value). A generated component is a rule's own, so it always
/// passes; the check matters for extra components and for an `aasa.file` written by hand.
public enum SiteAgreement {
    public static func check(_ site: SiteConfiguration, at sitePath: JSONPath) -> [ConfigurationProblem] {
        let document: AASADocument
        do {
            document = try AASADocument(json: site.aasa.document, byteCount: site.aasa.bytes.count)
        } catch {
            return [
                ConfigurationProblem(
                    path: sitePath.appending("aasa"), problem: "the AASA file cannot be read: \(error)", fix: "correct the file", code: "LH000")
            ]
        }
        let matcher = AASAMatcher(document)
        // Probe URLs carry no port: a site's hosts have none, so the domain covers https's default port
        // only (a link on another port opens in the browser), and that is where its links live.
        let host = site.primaryHost
        var problems: [ConfigurationProblem] = []
        for (ruleIndex, rule) in site.router.rules.enumerated() {
            let ownComponent = site.aasaPolicy.extraComponentCount + ruleIndex
            for (exampleIndex, example) in rule.examples.enumerated() {
                let path = sitePath.appending("links").appending(ruleIndex).appending("examples").appending(exampleIndex)
                guard let result = try? matcher.match("https://\(host)\(example)", options: AASAMatchOptions(domain: host)) else {
                    problems.append(
                        ConfigurationProblem(path: path, problem: "\"\(example)\" is not a URL path", fix: "write the link's path and query", code: "LH001"))
                    continue
                }
                switch result.decision {
                case .match:
                    if site.aasaPolicy.isGenerated, result.detailsIndex != 0 || result.componentIndex != ownComponent || result.ruleKind != .component {
                        problems.append(
                            ConfigurationProblem(
                                path: path,
                                problem:
                                    "\"\(example)\" opens the app through \(result.rule?.description ?? "another rule"), not rule \"\(rule.name)\"'s own component (applinks.details[0].components[\(ownComponent)])",
                                fix: "make the extra component narrower, or move rule \"\(rule.name)\" so no earlier component matches its links",
                                code: "LH002"))
                    }
                case .exclude, .none:
                    let verb = result.decision == .exclude ? "is blocked by an exclusion" : "does not open the app"
                    problems.append(
                        ConfigurationProblem(
                            path: path,
                            problem: "\"\(example)\" \(verb) under the served AASA file: \(result.explanation)",
                            fix: site.aasaPolicy.isGenerated
                                ? "remove or narrow the exclusion in aasa.extraComponents"
                                : "add a component for this link to the AASA file, or remove the example",
                            code: "LH001"))
                }
            }
        }
        if !site.aasaPolicy.allowsComponentsWithoutPages {
            problems += componentsWithoutPages(site, document: document, matcher: matcher, sitePath: sitePath)
        }
        return problems
    }

    /// LH003: components whose sample URL opens the app but reaches no link rule.
    private static func componentsWithoutPages(_ site: SiteConfiguration, document: AASADocument, matcher: AASAMatcher, sitePath: JSONPath)
        -> [ConfigurationProblem]
    {
        guard let appLinks = document.appLinks else { return [] }
        var problems: [ConfigurationProblem] = []
        for entry in appLinks.details {
            guard let components = entry.components else { continue }
            for component in components {
                let effective = component.filling(from: entry.defaults).filling(from: appLinks.defaults)
                guard effective.exclude != true, let target = sampleTarget(for: effective, variables: appLinks.substitutionVariables) else { continue }
                let host = site.primaryHost
                guard let result = try? matcher.match("https://\(host)\(target)", options: AASAMatchOptions(domain: host)),
                    result.decision == .match, result.detailsIndex == entry.index, result.componentIndex == component.index
                else { continue }
                let parts = HTTPRequestTargetParts(target)
                if case .noRule = site.router.route(rawPath: parts.rawPath, rawQuery: parts.rawQuery) {
                    problems.append(
                        ConfigurationProblem(
                            path: sitePath.appending("aasa"),
                            problem:
                                "\(component.jsonPath) opens links such as \(target) in the app, but no link rule serves them: people without the app get a 404",
                            fix:
                                "add a link rule for these links, make the component an exclusion, or set aasa.allowComponentsWithoutPages to true if the web serves them elsewhere",
                            code: "LH003"))
                }
            }
        }
        return problems
    }

    /// A path-and-query the component matches, or `nil` when it cannot be sampled.
    static func sampleTarget(for component: AASAComponent, variables: AASASubstitutionVariables?) -> String? {
        let caseSensitive = component.caseSensitive ?? true
        let variables = variables ?? AASASubstitutionVariables()
        guard let path = AASAPattern(component.path ?? "*", role: .urlPath, caseSensitive: caseSensitive, variables: variables).sample() else { return nil }
        var query: [String] = []
        switch component.query {
        case nil:
            break
        case .string(let pattern)?:
            guard let text = AASAPattern(pattern, caseSensitive: caseSensitive, variables: variables).sample() else { return nil }
            if !text.isEmpty { query.append(text) }
        case .items(let items)?:
            for item in items {
                guard let value = AASAPattern(item.pattern, caseSensitive: caseSensitive, variables: variables).sample() else { return nil }
                if !value.isEmpty { query.append("\(item.name)=\(value)") }
            }
        case .ignoredDictionary?:
            break
        }
        return query.isEmpty ? path : path + "?" + query.joined(separator: "&")
    }
}
