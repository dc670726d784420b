import ArgumentParser
import LinkRules
import LinkhostKit
import OrderedJSON

/// `linkhost routes`: every link rule of a site (or all sites), in matching order, with the link
/// it serves, the app URL it opens and the AASA component it generates.
struct RoutesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List the link rules with their app URLs and AASA components, in matching order."
    )

    @OptionGroup var configOptions: ConfigOptions

    @Option(name: .long, help: ArgumentHelp("Only the site serving this host.", valueName: "host"))
    var host: String?

    func run() throws {
        let configuration = try CLIConfig.load(configOptions.config)
        let sites = try CLIConfig.sites(for: host, in: configuration, flag: "--host")
        var lines: [String] = []
        for site in sites {
            let rules = site.router.rules
            lines.append("site \(site.id) (\(site.hosts.joined(separator: ", "))): \(rules.count) rule\(rules.count == 1 ? "" : "s")")
            for (index, rule) in rules.enumerated() {
                lines.append("\(index + 1). \(rule.name)")
                lines.append("   link: \(LinkPattern.describe(rule))")
                lines.append("   app:  \(rule.appURL.text)")
                lines.append("   aasa: \(AASAGenerator.component(for: rule).jsonText(.compact))")
                if !rule.examples.isEmpty { lines.append("   e.g.  \(rule.examples.joined(separator: "  "))") }
            }
            if !site.router.passThrough.isEmpty {
                lines.append("passed on to the app when present: \(site.router.passThrough.map(\.name).joined(separator: ", "))")
            }
            lines.append("")
        }
        StandardOutput.write(lines.joined(separator: "\n"))
    }
}

/// A rule's link written with placeholders, e.g. `/showthread.php?goto=post&postid={postid}`.
enum LinkPattern {
    static func describe(_ rule: LinkRule) -> String {
        var query: [String] = []
        for parameter in rule.queryParameters {
            switch parameter.constraint {
            case .fixed(let value): query.append("\(parameter.name)=\(value)")
            case .absent: continue
            case .typed(_, let required): query.append(required ? "\(parameter.name)={\(parameter.name)}" : "[\(parameter.name)={\(parameter.name)}]")
            }
        }
        return rule.path.text + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }
}
