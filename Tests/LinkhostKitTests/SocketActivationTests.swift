import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// `serve` under a service manager, through the real binary: a socket passed the way systemd passes
/// it (`LISTEN_FDS`, fd 3, `LISTEN_PID` the server's own), restarts on that socket under load, and
/// Debian's `systemd-socket-activate` in front. The long form (more restarts, more load) is
/// `bench/restart-run`.
@Suite("linkhost under a service manager", .ownThread, .serialized)
struct SocketActivationTests {
    /// Starts `serve` with `socket` on fd 3, as systemd does: the shell sets `LISTEN_PID` to its own
    /// pid and then becomes the server, so the variable names the server's process.
    static func serve(on socket: HeldSocket, logFolder folder: TemporaryDirectory) throws -> ChildProcess {
        var environment = ProcessInfo.processInfo.environment
        environment["LISTEN_FDS"] = "1"
        environment["LISTEN_FDNAMES"] = "http"
        let child = try ChildProcess(
            "sh", ["-c", "LISTEN_PID=$$ exec \"$0\" \"$@\"", ProjectPaths.linkhostBinary] + CommandLineTests.serveArguments(logFolder: folder),
            environment: environment, passing: [socket.descriptor])
        guard child.waitForOutput(containing: "on the socket the service manager passed") else {
            Issue.record("serve did not take the passed socket: \(child.standardOutput) \(child.standardError)")
            throw CancellationError()
        }
        return child
    }

    /// Rows the stop line says the process wrote.
    static func rowsWritten(by child: ChildProcess) -> Int {
        guard let line = child.standardOutput.split(separator: "\n").first(where: { $0.hasPrefix("linkhost stopped after") }),
            let range = line.range(of: "log: ")
        else { return -1 }
        return Int(line[range.upperBound...].prefix { $0.isNumber }) ?? -1
    }

    @Test func restartsOnAHeldSocketRefuseNothingCutNothingAndLoseNoRow() throws {
        let folder = try TemporaryDirectory()
        let socket = try HeldSocket()
        let answered = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let failures = Mutex<[String]>([])
        let clients = DispatchGroup()
        var child = try Self.serve(on: socket, logFolder: folder)
        var written = 0
        for client in 0..<8 {
            clients.enter()
            Thread {
                defer { clients.leave() }
                var sequence = 0
                // Each client sends its next request as soon as an answer arrives; an answer that
                // closes the connection sends it to a new one, which waits in the held socket's
                // backlog while no server runs. The timeout outlasts a stop and a start.
                while !done.load(ordering: .relaxed) {
                    let connection: RawHTTPClient
                    do {
                        connection = try RawHTTPClient(port: socket.port, timeoutSeconds: 30)
                    } catch {
                        failed.add(1, ordering: .relaxed)
                        failures.withLock { $0.append("connect: \(error)") }
                        return
                    }
                    while !done.load(ordering: .relaxed) {
                        sequence += 1
                        guard let response = try? connection.request("GET", "/addfriend?code=RESTART\(client)&utm_term=\(sequence)", host: "rowhni.com") else {
                            failed.add(1, ordering: .relaxed)
                            failures.withLock { $0.append("client \(client) request \(sequence): no answer") }
                            return
                        }
                        answered.add(1, ordering: .relaxed)
                        if response.header("Connection")?.lowercased() == "close" { break }
                    }
                }
            }.start()
        }
        #expect(waitUntil { answered.load(ordering: .relaxed) > 100 })
        for round in 0..<2 {
            child.send(signal: SIGTERM)
            #expect(child.waitForExit(timeoutSeconds: 30) == 0, "round \(round): \(child.standardError)")
            written += Self.rowsWritten(by: child)
            let before = answered.load(ordering: .relaxed)
            child = try Self.serve(on: socket, logFolder: folder)
            #expect(waitUntil { answered.load(ordering: .relaxed) > before + 100 }, "round \(round): the next server answered nothing")
        }
        done.store(true, ordering: .relaxed)
        clients.wait()
        child.send(signal: SIGTERM)
        #expect(child.waitForExit(timeoutSeconds: 30) == 0)
        written += Self.rowsWritten(by: child)
        #expect(failed.load(ordering: .relaxed) == 0, "\(failures.withLock { $0.prefix(5) })")
        #expect(written == answered.load(ordering: .relaxed))
        print("restarts on a held socket: \(answered.load(ordering: .relaxed)) answered, \(written) rows written, \(failed.load(ordering: .relaxed)) failed")
    }

    @Test func systemdSocketActivateStartsItAndReadinessArrives() throws {
        let folder = try TemporaryDirectory()
        let socketPath = folder.path + "/notify"
        let listener = try NotifySocketListener(path: socketPath)
        defer { listener.close() }
        let port = try FreePort.find()
        // systemd-socket-activate binds the port and starts the server on the first connection,
        // handing the socket over as fd 3 with LISTEN_PID and the name given.
        let activator = try ChildProcess(
            "systemd-socket-activate",
            ["-l", "127.0.0.1:\(port)", "--fdname=http", "-E", "NOTIFY_SOCKET=\(socketPath)", ProjectPaths.linkhostBinary]
                + CommandLineTests.serveArguments(logFolder: folder))
        defer {
            activator.send(signal: SIGTERM)
            _ = activator.waitForExit(timeoutSeconds: 30)
        }
        // It says so on standard error once the port is bound.
        #expect(waitUntil { activator.standardError.contains("Listening on 127.0.0.1:\(port)") })
        let head = try ChildProcess.run(
            "curl", ["-sI", "-m", "30", "-H", "Host: rowhni.com", "http://127.0.0.1:\(port)/.well-known/apple-app-site-association"])
        #expect(head.output.hasPrefix("HTTP/1.1 200"), "\(head.output) \(activator.standardError)")
        #expect(activator.waitForOutput(containing: "on the socket the service manager passed"))
        #expect(listener.waitForMessage(containing: "READY=1|STATUS=serving configuration generation 1|MAINPID="))
    }

    /// The shipped units: systemd's own checks (a copy whose ExecStart is this build's binary, since
    /// `verify` wants it to exist), and the sandbox's exposure rated OK or better.
    @Test func theShippedUnitsPassSystemdsChecks() throws {
        let folder = try TemporaryDirectory()
        let units = ProjectPaths.root + "/dist/systemd"
        let service = try String(contentsOfFile: units + "/linkhost.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/local/bin/linkhost serve --config /etc/linkhost/config.json --log-db /var/lib/linkhost/linkhost.sqlite"))
        let copy = try folder.write("linkhost.service", service.replacingOccurrences(of: "/usr/local/bin/linkhost", with: ProjectPaths.linkhostBinary))
        let socket = try folder.write("linkhost.socket", try String(contentsOfFile: units + "/linkhost.socket", encoding: .utf8))
        let verify = try ChildProcess.run("systemd-analyze", ["verify", "--man=no", socket, copy])
        #expect(verify.status == 0 && verify.error.isEmpty, "\(verify.output) \(verify.error)")
        let security = try ChildProcess.run("systemd-analyze", ["security", "--offline=true", units + "/linkhost.service"])
        let verdict = security.output.split(separator: "\n").first { $0.contains("Overall exposure level") }.map(String.init) ?? ""
        let score = Double(verdict.split(separator: " ").dropLast(2).last ?? "") ?? 10
        #expect(verdict.contains(" OK ") || verdict.contains(" SAFE "), "\(verdict)")
        #expect(score <= 2, "\(verdict)")
    }
}
