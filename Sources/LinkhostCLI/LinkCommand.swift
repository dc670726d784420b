import ArgumentParser
import LinkRules
import LinkhostKit

/// `linkhost link <rule> key=value…`: build a universal link and show the app URL it opens.
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Print the universal link for a rule and its values, and the app URL it opens.",
        discussion: "Example: linkhost link addfriend code=TEST123 --utm-source whatsapp"
    )

    @OptionGroup var configOptions: ConfigOptions

    @Argument(help: ArgumentHelp("The rule's name (see `linkhost routes`).", valueName: "rule"))
    var rule: String

    @Argument(help: ArgumentHelp("Parameter values as name=value.", valueName: "name=value"))
    var values: [String] = []

    @Option(name: .long, help: ArgumentHelp("The site's host (needed when several sites have the rule; also the link's host).", valueName: "host"))
    var host: String?

    @Option(name: .customLong("utm-source"), help: "utm_source of the link.")
    var utmSource: String?

    @Option(name: .customLong("utm-medium"), help: "utm_medium of the link.")
    var utmMedium: String?

    @Option(name: .customLong("utm-campaign"), help: "utm_campaign of the link.")
    var utmCampaign: String?

    func run() throws {
        let configuration = try CLIConfig.load(configOptions.config)
        let candidates = try CLIConfig.sites(for: host, in: configuration, flag: "--host").filter { $0.router.rule(named: rule) != nil }
        guard let site = candidates.first, let linkRule = site.router.rule(named: rule) else {
            let known = try CLIConfig.sites(for: host, in: configuration, flag: "--host").flatMap { $0.router.rules.map(\.name) }
            throw CLIFailure.unusableInput("no rule named \"\(rule)\"; rules: \(known.joined(separator: ", "))")
        }
        if candidates.count > 1 {
            throw CLIFailure.unusableInput("sites \(candidates.map(\.id).joined(separator: ", ")) all have a rule \"\(rule)\"; choose one with --host")
        }
        var parsed: [String: String] = [:]
        for pair in values {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIFailure.unusableInput(
                    "\"\(pair)\" is not name=value; parameters of \(rule): \(linkRule.parameters.map(\.name).joined(separator: ", "))")
            }
            parsed[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        let utm = [("utm_source", utmSource), ("utm_medium", utmMedium), ("utm_campaign", utmCampaign)].compactMap { name, value in
            value.map { (name: name, value: $0) }
        }
        let path = try Self.build(linkRule, values: parsed, utm: utm)
        let linkHost = host.flatMap(HostLookup.normalize).flatMap { site.lists(host: $0) ? $0 : nil } ?? site.primaryHost
        let appURL = try Self.appURL(of: path, site: site, rule: rule)
        StandardOutput.write("\(configuration.server.publicScheme)://\(linkHost)\(path)\n\(appURL)\n")
    }

    private static func build(_ rule: LinkRule, values: [String: String], utm: [(name: String, value: String)]) throws -> String {
        do {
            return try rule.link(values: values, extraQuery: utm)
        } catch {
            let accepted = rule.parameters.compactMap { parameter in parameter.type.map { "\(parameter.name) (\($0.rawValue))" } }
            throw CLIFailure.unusableInput("cannot build a link for rule \(rule.name): \(error); parameters: \(accepted.joined(separator: ", "))")
        }
    }

    /// Routes the link just built, as the server would, so the app URL shown is the one served.
    private static func appURL(of path: String, site: SiteConfiguration, rule: String) throws -> String {
        let target = HTTPRequestTargetParts(path)
        let route = site.router.route(rawPath: target.rawPath, rawQuery: target.rawQuery)
        if case .page(let match) = route, match.rule.name == rule { return match.appURL }
        throw CLIFailure.runtime("the link \(path) does not route back to \(rule); run `linkhost check`")
    }
}
