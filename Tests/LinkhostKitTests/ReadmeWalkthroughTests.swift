import Foundation
import OrderedJSON
import TestSupport
import Testing

/// The README's "first ten minutes", run as a new user pastes them, so they stay true.
///
/// The commands come from the README itself: the fenced blocks after an HTML comment
/// `<!-- first-ten-minutes -->` (the second terminal), `<!-- first-ten-minutes: server -->` (the
/// server's terminal) and the marker `<!-- first-ten-minutes: stop -->` (Ctrl-C there). Each must be
/// the command listed in `steps` below, in that order, where it stands beside what it must do.
/// `Tests/Walkthrough/two_terminals.py` runs them in a copy of the repository's tracked files in a
/// temporary folder (the server writes `data/` and step 9 edits `config.json`), with two changes
/// only: `bash scripts/serve` runs the binary this test run built, put where the README's PATH line
/// expects the release build, instead of building a second one; and the public and admin listeners
/// use free ports instead of 8080 and 9090, which another server on this machine may hold (the
/// server gets them as `--port`/`--admin-port`, which scripts/serve passes on; the commands get the
/// numbers replaced).
@Suite("The README's first ten minutes", .ownThread, .serialized)
struct ReadmeWalkthroughTests {
    /// What each README command must do, in the README's order. A command in the second terminal
    /// must exit 0 and print the fact (standard output); `.silent` ones print nothing at all.
    static let steps: [Step] = [
        .server(["bash scripts/serve"], ready: "listening on "),
        .silent(#"export PATH="$PWD/.build-release/release:$PATH""#),
        .command("linkhost --version", prints: "linkhost "),
        .command(
            #"curl -s -H 'Host: rowhni.com' 'http://127.0.0.1:8080/addfriend?code=TEST123' | grep -o '<h1>[^<]*</h1>\|href="rowhni://[^"]*"'"#,
            prints: #"href="rowhni://addfriend?code=TEST123""#),
        .command(#"curl -s -o /dev/null -w '%{http_code}\n' -H 'Host: rowhni.com' 'http://127.0.0.1:8080/addfriend'"#, prints: "400"),
        .command(
            "curl -sI -H 'Host: forums.somethingawful.com' http://127.0.0.1:8080/.well-known/apple-app-site-association",
            prints: "Content-Type: application/json\r\n"),
        .command(
            "curl -s -H 'User-Agent: AASA-Bot/1.0.0' -H 'Host: rowhni.com' http://127.0.0.1:8080/.well-known/apple-app-site-association | python3 -m json.tool",
            prints: #""appIDs": ["#),
        .command("linkhost match 'https://rowhni.com/addfriend?code=TEST123'", prints: "decision: match"),
        .command("linkhost match 'https://rowhni.com/addfriend'", prints: "decision: none"),
        .silent("mkdir -p data && install -m 600 /dev/null data/secrets.env"),
        .silent(#"echo "export LINKHOST_ADMIN_TOKEN=$(openssl rand -hex 16)" >> data/secrets.env"#),
        .silent(#"echo "export LINKHOST_INGEST_KEY=$(openssl rand -hex 24)" >> data/secrets.env"#),
        .silent(". data/secrets.env"),
        .stop(prints: ", 0 dropped"),
        .server([". data/secrets.env", "bash scripts/serve"], ready: "admin (dashboard, /api/v1/, /metrics)"),
        .command(#"echo "$LINKHOST_ADMIN_TOKEN""#, prints: "\n"),
        .command(
            #"curl -s -o /dev/null -w '%{http_code}\n' -A 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1' -H 'Host: rowhni.com' 'http://127.0.0.1:8080/addfriend?code=TEST123&utm_source=whatsapp&utm_campaign=launch'"#,
            prints: "200"),
        .command(
            #"curl -s -H 'Host: rowhni.com' -H "Authorization: Bearer $LINKHOST_INGEST_KEY" -H 'Content-Type: application/json' -d '{"url": "https://rowhni.com/addfriend?code=TEST123", "source": "universal-link"}' http://127.0.0.1:8080/v1/opens"#,
            prints: #""rule":"addfriend""#),
        .command("linkhost log --since 1h --utm-source whatsapp", prints: "whatsapp", settles: true),
        .command("linkhost stats --funnel --by utm_campaign", prints: "100.0%", settles: true),
        .command(
            #"curl -s -H "Authorization: Bearer $LINKHOST_ADMIN_TOKEN" 'http://127.0.0.1:9090/api/v1/funnel?by=utm_campaign'"#,
            prints: #""utm_campaign":"launch","views":1,"open_clicks":0,"store_clicks":0,"copies":0,"app_opens":1,"opens_after_view":1"#, settles: true),
        .silent(#"sed -i 's/"TEAMID\./"ABCDE12345./' config.json"#),
        .command("linkhost reload", prints: "sent SIGHUP to linkhost"),
        .command(
            #"curl -s -H 'Host: rowhni.com' http://127.0.0.1:8080/.well-known/apple-app-site-association | grep -o '"ABCDE12345[^"]*"' | sort -u"#,
            prints: #""ABCDE12345.com.yaman.rowhni""#, settles: true),
        .command("linkhost check", prints: "0 errors, 0 warnings"),
        .stop(prints: ", 0 dropped"),
    ]

    @Test func theCommandsRunAsPastedAndDoWhatTheREADMESays() throws {
        let readme = try String(contentsOfFile: ProjectPaths.root + "/README.md", encoding: .utf8)
        let found = Self.walkthrough(inREADME: readme)
        let readmeListing = found.map(\.listing)
        let testListing = Self.steps.map(\.listing)
        // The first step where they part, said in full (a length difference parts at the shorter end).
        let lengthDifference = readmeListing.count == testListing.count ? nil : min(readmeListing.count, testListing.count)
        if let step = zip(readmeListing, testListing).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? lengthDifference {
            let inREADME = step < readmeListing.count ? readmeListing[step] : "(nothing)"
            let inTest = step < testListing.count ? testListing[step] : "(nothing)"
            Issue.record(
                "step \(step + 1) of the README's first ten minutes is\n\(inREADME)\nbut this test lists\n\(inTest)\n(update `steps` with what it must do)")
            return
        }

        let checkout = try TemporaryDirectory("linkhost-readme")
        try Self.copyTrackedFiles(to: checkout.path)
        let release = checkout.path + "/.build-release/release"
        try FileManager.default.createDirectory(atPath: release, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: release + "/linkhost", withDestinationPath: ProjectPaths.linkhostBinary)

        let port = try FreePort.find()
        let adminPort = try FreePort.find()
        let plan = JSONValue.array(found.map { $0.plan(port: port, adminPort: adminPort) })
        let scratch = try TemporaryDirectory("linkhost-readme-plan")
        let planFile = try scratch.write("plan.json", plan.jsonText())
        let run = try ChildProcess.run(
            "python3", [ProjectPaths.root + "/Tests/Walkthrough/two_terminals.py", checkout.path, planFile], timeoutSeconds: 300)
        #expect(run.status == 0, "\(run.error)")
        let results = try run.output.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        #expect(results.count == Self.steps.count, "\(run.output)\n\(run.error)")

        for (step, result) in zip(Self.steps, results) {
            let status = result["status"]?.numberValue?.intValue
            let output = result["stdout"]?.stringValue ?? ""
            let errors = result["stderr"]?.stringValue ?? ""
            let said = "\(step.listing)\n--- exit status \(status.map(String.init) ?? "?"), standard output:\n\(output)\n--- standard error:\n\(errors)"
            #expect(status == 0, "\(said)")
            switch step {
            case .silent:
                #expect(output.isEmpty && errors.isEmpty, "\(said)")
            case .command(_, let fact, _), .server(_, let fact), .stop(let fact):
                #expect(output.contains(fact), "expected \(String(reflecting: fact)) in the output of \(said)")
            }
        }
    }

    /// One step of the walkthrough: what the README says to do, with what it must do.
    enum Step {
        /// A block run in the server's terminal; `ready` is what its output shows once it serves.
        case server([String], ready: String)
        /// Ctrl-C in the server's terminal: it stops with exit status 0, and its output shows `prints`.
        case stop(prints: String)
        /// A command in the second terminal: exit status 0 and `prints` in its standard output.
        /// `settles`: what it reads comes after an answer (log rows the writer commits, a reload the
        /// server makes after the signal), so it is run again until that is there (10 s at most).
        case command(String, prints: String, settles: Bool = false)
        /// A command in the second terminal that succeeds without a word.
        case silent(String)

        /// How the step reads in the README (a command's continuation lines joined), to compare.
        var listing: String {
            switch self {
            case .server(let commands, _): "[server] " + commands.joined(separator: "; ")
            case .stop: "[Ctrl-C]"
            case .command(let command, _, _), .silent(let command): command
            }
        }
    }

    /// A step found in the README: its kind and its commands exactly as written there.
    struct FoundStep {
        enum Kind { case server, stop, command }
        let kind: Kind
        let commands: [String]

        var listing: String {
            switch kind {
            case .server: "[server] " + commands.map(Self.joined).joined(separator: "; ")
            case .stop: "[Ctrl-C]"
            case .command: Self.joined(commands[0])
            }
        }

        /// The step for the driver, with the listeners on the ports given.
        func plan(port: Int, adminPort: Int) -> JSONValue {
            let ported = { (command: String) in
                command.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(port)")
                    .replacingOccurrences(of: "127.0.0.1:9090", with: "127.0.0.1:\(adminPort)")
            }
            switch kind {
            case .server:
                let server = commands.map {
                    $0 == "bash scripts/serve" ? ".build-release/release/linkhost serve --port \(port) --admin-port \(adminPort)" : $0
                }
                let step = ReadmeWalkthroughTests.steps.first { $0.listing == listing }
                guard case .server(_, let ready)? = step else { return .object([]) }
                return .object([JSONMember("server", .array(server.map { .string($0) })), JSONMember("ready", .string(ready))])
            case .stop:
                return .object([JSONMember("stop", .bool(true))])
            case .command:
                var members = [JSONMember("command", .string(ported(commands[0])))]
                if let step = ReadmeWalkthroughTests.steps.first(where: { $0.listing == listing }), case .command(_, let fact, true) = step {
                    members.append(JSONMember("until", .string(fact)))
                }
                return .object(members)
            }
        }

        /// A command as one line: a continuation (a backslash at the end of a line) and the
        /// indentation after it become one space.
        static func joined(_ command: String) -> String {
            command.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.map {
                $0.hasSuffix("\\") ? String($0.dropLast()).trimmingCharacters(in: .whitespaces) : $0
            }.joined(separator: " ")
        }
    }

    /// The marked blocks of the README's first ten minutes, as steps: one per command of a block
    /// for the second terminal, one per server block, one per Ctrl-C marker.
    static func walkthrough(inREADME text: String) -> [FoundStep] {
        var steps: [FoundStep] = []
        var pending: FoundStep.Kind?
        var block: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if var lines = block {
                if line.hasPrefix("```") {
                    let commands = Self.commands(in: lines)
                    if pending == .server {
                        steps.append(FoundStep(kind: .server, commands: commands))
                    } else {
                        steps += commands.map { FoundStep(kind: .command, commands: [$0]) }
                    }
                    pending = nil
                    block = nil
                } else {
                    lines.append(line)
                    block = lines
                }
                continue
            }
            switch line.trimmingCharacters(in: .whitespaces) {
            case "<!-- first-ten-minutes -->": pending = .command
            case "<!-- first-ten-minutes: server -->": pending = .server
            case "<!-- first-ten-minutes: stop -->": steps.append(FoundStep(kind: .stop, commands: []))
            default:
                if line.hasPrefix("```"), pending != nil { block = [] }
            }
        }
        return steps
    }

    /// A block's commands: lines joined where one ends in a backslash; blank lines and comments left out.
    static func commands(in lines: [String]) -> [String] {
        var commands: [String] = []
        var current: [String] = []
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if current.isEmpty, trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            current.append(line)
            if !line.hasSuffix("\\") {
                commands.append(current.joined(separator: "\n"))
                current = []
            }
        }
        if !current.isEmpty { commands.append(current.joined(separator: "\n")) }
        return commands
    }

    /// The files git tracks, as they are in the working tree, copied into `folder`.
    static func copyTrackedFiles(to folder: String) throws {
        let listing = try ChildProcess.run("git", ["-C", ProjectPaths.root, "ls-files", "-z"])
        #expect(listing.status == 0, "git ls-files: \(listing.error)")
        let manager = FileManager.default
        for name in listing.output.split(separator: "\0").map(String.init) {
            let source = ProjectPaths.root + "/" + name
            guard manager.fileExists(atPath: source) else { continue }
            let target = folder + "/" + name
            try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try manager.copyItem(atPath: source, toPath: target)
        }
    }
}
