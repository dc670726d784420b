import ArgumentParser
import Foundation
import LinkhostKit
import OrderedJSON

/// `linkhost probe [URL]`: GET a plain-HTTP URL and succeed on a 2xx status — the container's
/// HEALTHCHECK, so the runtime image needs no curl. `--details` reads the detailed health report
/// from the admin listener's `/healthz` with the admin token (the public `/healthz` says only the status).
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Check that a linkhost answers: GET an http:// URL, exit 0 on a 2xx status; --details shows its health report.",
        discussion: """
            Without --details it prints the status code; the public /healthz answers 200 with the status alone \
            (ok, degraded or stopping). With --details it GETs /healthz on the admin listener (the URL given, \
            else server.admin.listen of --config) with the admin token (\(AdminToken.variable), else \
            server.admin.tokenFile of --config) and prints the report: the status, the sites, the last reload \
            with its problems, the HTTP counters, the hit log with its database and journal, the CDN check. \
            Exit status: 0 a 2xx answer, 1 no answer or another status, 2 no admin listener configured for --details.
            """
    )

    static let publicURL = "http://127.0.0.1:8080/healthz"

    @Argument(
        help: ArgumentHelp(
            "The URL, e.g. \(publicURL) (the default); with --details, the admin listener's, e.g. http://127.0.0.1:9090/healthz (default: from --config).",
            valueName: "url"))
    var url: String?

    @Flag(name: .long, help: "Read the detailed health report from the admin listener's /healthz, with the admin token.")
    var details = false

    @Flag(name: .long, help: "With --details: print the report as the JSON the admin listener sends.")
    var json = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --details: the config whose server.admin names the admin listener and its token file (default config.json).", valueName: "path"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the answer.", valueName: "seconds"))
    var timeout: Int = 3

    func validate() throws {
        if !details, json { throw ValidationError("--json goes with --details: without it, probe prints only the status code") }
        if !details, config != nil { throw ValidationError("--config goes with --details: without it, probe reads no config") }
    }

    func run() throws {
        if details {
            try showDetails()
            return
        }
        let address = url ?? Self.publicURL
        guard let target = ProbeTarget(address) else {
            throw CLIFailure.unusableInput("\"\(address)\" is not an http:// URL with a host, e.g. \(Self.publicURL)")
        }
        switch HealthProbe.get(target, timeoutSeconds: timeout) {
        case .success(let answer) where (200..<300).contains(answer.status):
            StandardOutput.write("\(answer.status)\n")
        case .success(let answer):
            throw CLIFailure.runtime("\(address) answered \(answer.status)")
        case .failure(let reason):
            throw CLIFailure.runtime("\(address): \(reason)")
        }
    }

    /// `--details`: the admin listener's `/healthz`, printed as text or as its JSON.
    private func showDetails() throws {
        let (target, token) = try adminListener()
        let answer: ProbeAnswer
        switch HealthProbe.get(
            target, headers: [("Authorization", "Bearer \(String(decoding: token.bytes, as: UTF8.self))")], wholeAnswer: true, timeoutSeconds: timeout)
        {
        case .success(let got): answer = got
        case .failure(let reason):
            throw CLIFailure.runtime("\(target.url): \(reason) (the admin listener's address is on serve's start-up lines)")
        }
        switch answer.status {
        case 200..<300: break
        case 401:
            throw CLIFailure.runtime(
                "\(target.url) refused the admin token (401): \(AdminToken.variable) or server.admin.tokenFile must hold the token the server runs with")
        default:
            throw CLIFailure.runtime("\(target.url) answered \(answer.status)")
        }
        guard let report = try? JSONParser().parse(answer.body), report.objectMembers != nil else {
            throw CLIFailure.runtime("\(target.url) answered \(answer.status) without a health report; is it a linkhost admin listener?")
        }
        if json {
            StandardOutput.write(bytes: report.serialized(.pretty(indent: 2)) + [0x0A])
        } else {
            StandardOutput.write(HealthReportText(report).text)
        }
    }

    /// Where the admin listener's `/healthz` is and the token it takes. The config is read only for
    /// what the command line and the environment do not give, and only its `server.admin`: the
    /// details are wanted most when the file holds a config a reload refused.
    private func adminListener() throws -> (ProbeTarget, AdminToken) {
        let environment = ProcessInfo.processInfo.environment
        let path = config ?? "config.json"
        var settings = AdminSettings.defaults
        if url == nil || environment[AdminToken.variable] == nil {
            do {
                settings = try ConfigurationLoader.adminSettings(inConfigAt: path)
            } catch {
                throw CLIFailure.unusableInput("--details reads server.admin of the config, which cannot be used.\n\(error)")
            }
        }
        let resolved: AdminToken?
        do {
            resolved = try AdminToken.resolve(environment: environment, settings: settings)
        } catch {
            throw CLIFailure.unusableInput("\(error)")
        }
        guard let token = resolved else {
            throw CLIFailure.unusableInput(
                "--details reads /healthz on the admin listener, and none is configured: it runs only with an admin token. Set \(AdminToken.variable), or server.admin.tokenFile in \(path) (server.admin), to the token the server runs with; without --details, probe reads the public status"
            )
        }
        if let url {
            guard let target = ProbeTarget(url) else {
                throw CLIFailure.unusableInput("\"\(url)\" is not an http:// URL with a host, e.g. http://127.0.0.1:9090/healthz")
            }
            return (target, token)
        }
        let host = settings.listenAddress == "0.0.0.0" ? "127.0.0.1" : settings.listenAddress == "::" ? "::1" : settings.listenAddress
        let target = ProbeTarget(host: host, port: settings.port, path: "/healthz")
        guard !settings.tls else {
            throw CLIFailure.unusableInput(
                "server.admin.tls is on in \(path): the admin listener speaks HTTPS, which probe does not; read it with curl -H \"Authorization: Bearer $\(AdminToken.variable)\" https://\(target.hostHeader):\(settings.port)/healthz"
            )
        }
        guard settings.port != 0 else {
            throw CLIFailure.unusableInput(
                "server.admin.listen.port is 0 in \(path) (a free port, picked at start): give the admin URL serve printed, e.g. linkhost probe --details http://127.0.0.1:9090/healthz"
            )
        }
        return (target, token)
    }
}
