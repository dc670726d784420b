import ArgumentParser
import Glibc
import LinkRules
import LinkhostKit
import QRCodes

/// `linkhost link <rule> key=value…`: build a universal link and show the app URL it opens, and
/// with `--qr` write it as a QR code (SVG, PNG or terminal text).
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link",
        abstract: "Print the universal link for a rule and its values, and the app URL it opens; with --qr, also as a QR code.",
        discussion: """
            Example: linkhost link addfriend code=TEST123 --utm-source whatsapp
            With --qr the link carries from=qrcode when log.trackedParameters lists "from" (the default), \
            so scans can be told from taps. Without --output, svg and png go to standard output (png \
            only when it is redirected) and the link to standard error; terminal prints the code and \
            then the link. NO_COLOR set prints the terminal code without colours.
            """
    )

    /// How `--qr` writes the code.
    enum QRFormat: String, ExpressibleByArgument, CaseIterable {
        case svg, png, terminal
    }

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

    @Option(name: .long, help: ArgumentHelp("Write the link as a QR code: svg, png or terminal.", valueName: "format"))
    var qr: QRFormat?

    @Option(name: .long, help: ArgumentHelp("The file --qr writes (default: standard output).", valueName: "file"))
    var output: String?

    func validate() throws {
        if output != nil && qr == nil { throw ValidationError("--output needs --qr svg, --qr png or --qr terminal") }
    }

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
        // The marker goes before the UTM parameters: `…&from=qrcode&utm_source=…`.
        let source = qr == nil ? [] : QRCodeLink.sourceItems(rule: linkRule, site: site, trackedParameters: configuration.log.trackedParameters)
        let path = try Self.build(linkRule, values: parsed, extraQuery: source + utm)
        let linkHost = host.flatMap(HostLookup.normalize).flatMap { site.lists(host: $0) ? $0 : nil } ?? site.primaryHost
        let appURL = try Self.appURL(of: path, site: site, rule: rule)
        let link = "\(configuration.server.publicScheme)://\(linkHost)\(path)"
        guard let qr else {
            StandardOutput.write("\(link)\n\(appURL)\n")
            return
        }
        try writeQRCode(of: link, appURL: appURL, format: qr)
    }

    /// Writes the code to `--output` (then prints the link as usual) or to standard output (then
    /// says the link on standard error, except in the terminal format, which is read by a person).
    private func writeQRCode(of link: String, appURL: String, format: QRFormat) throws {
        let code: QRCode
        do {
            code = try QRCode(encoding: link)
        } catch {
            throw CLIFailure.unusableInput("--qr: the link cannot be a QR code: \(error)")
        }
        let bytes: [UInt8]
        switch format {
        case .svg:
            bytes = Array((code.svg() + "\n").utf8)
        case .png:
            if output == nil, isatty(STDOUT_FILENO) == 1 {
                throw CLIFailure.unusableInput("--qr png writes binary data: give --output FILE, or redirect standard output to a file")
            }
            do {
                bytes = try code.png()
            } catch {
                throw CLIFailure.runtime("--qr png: \(error)")
            }
        case .terminal:
            // no-color.org: a NO_COLOR that is set and not empty turns colours off.
            let colours = getenv("NO_COLOR").map { String(cString: $0).isEmpty } ?? true
            bytes = Array(code.terminalText(colours: colours).utf8)
        }
        if let output {
            try OutputFile.write(bytes, to: output, flag: "--output")
            StandardOutput.write("\(link)\n\(appURL)\n")
        } else if format == .terminal {
            StandardOutput.write(bytes: bytes)
            StandardOutput.write("\(link)\n\(appURL)\n")
        } else {
            StandardOutput.write(bytes: bytes)
            CLIFailure.printToStandardError("QR code of \(link)")
        }
    }

    private static func build(_ rule: LinkRule, values: [String: String], extraQuery: [(name: String, value: String)]) throws -> String {
        do {
            return try rule.link(values: values, extraQuery: extraQuery)
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
