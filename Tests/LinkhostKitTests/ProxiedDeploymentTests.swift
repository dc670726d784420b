import Foundation
import LinkLog
import LinkLogSQLite
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// linkhost behind a real nginx, as the first deployment shape has it: the visitor's address comes
/// from the proxy's `X-Forwarded-For` when, and only when, the connection is from a trusted proxy.
/// Clients connect from 127.0.5.5 and nginx from 127.0.0.1, so the log's /24 tells them apart.
@Suite(
    "Behind a reverse proxy", .ownThread, .serialized,
    .enabled(if: Tool.find("nginx") != nil || ProcessInfo.processInfo.environment["CI"] == "true", "nginx is not installed (apt-get install nginx-light)"))
struct ProxiedDeploymentTests {
    let folder: TemporaryDirectory

    init() throws { folder = try TemporaryDirectory("linkhost-proxied") }

    /// nginx in the foreground on `port`, passing everything to linkhost on `upstream` with the
    /// usual `X-Forwarded-For` line.
    private func startNginx(port: Int, upstream: Int) throws -> ChildProcess {
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(folder.path)/nginx.pid;
            error_log stderr warn;
            events { worker_connections 64; }
            http {
              access_log off;
              client_body_temp_path \(folder.path)/body;
              proxy_temp_path \(folder.path)/proxy;
              fastcgi_temp_path \(folder.path)/fastcgi;
              uwsgi_temp_path \(folder.path)/uwsgi;
              scgi_temp_path \(folder.path)/scgi;
              server {
                listen 127.0.0.1:\(port);
                location / {
                  proxy_pass http://127.0.0.1:\(upstream);
                  proxy_set_header Host $host;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                }
              }
            }
            """
        try config.write(toFile: folder.path + "/nginx.conf", atomically: true, encoding: .utf8)
        let nginx = try ChildProcess(try Tool.path("nginx"), ["-p", folder.path, "-e", "stderr", "-c", folder.path + "/nginx.conf"])
        // Ready once it accepts; a generous deadline is only the safety net.
        let deadline = ContinuousClock.now + .seconds(30)
        while (try? RawHTTPClient(port: port)) == nil {
            guard ContinuousClock.now < deadline, nginx.isRunning else {
                nginx.send(signal: SIGKILL)
                throw HarnessFailure("nginx did not start: \(nginx.standardError)")
            }
            usleep(10_000)
        }
        return nginx
    }

    private func visit(port: Int, forwardedFor: String? = nil) throws -> Int {
        let client = try RawHTTPClient(port: port, sourceAddress: "127.0.5.5")
        var headers = [("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Version/18.1 Mobile/15E148 Safari/604.1")]
        if let forwardedFor { headers.append(("X-Forwarded-For", forwardedFor)) }
        return try client.request("GET", "/addfriend?code=TEST123", host: "rowhni.com", headers: headers).status
    }

    @Test func theLogKeepsTheVisitorsNetworkNotTheProxysAndNotASpoofedOne() throws {
        let configuration = try shippedConfiguration(logDatabase: folder.path + "/log.sqlite", settings: ["server.trustedProxies": ["127.0.0.1"]])
        let server = try startedServer(configuration)
        let port = try FreePort.find()
        let nginx = try startNginx(port: port, upstream: server.port)
        defer {
            nginx.send(signal: SIGTERM)
            _ = nginx.waitForExit(timeoutSeconds: 30)
        }
        #expect(try visit(port: port) == 200)
        // A visitor's own X-Forwarded-For reaches linkhost left of what nginx appends: ignored.
        #expect(try visit(port: port, forwardedFor: "6.6.6.6") == 200)
        // Straight to linkhost from an untrusted address, the field is not read at all.
        #expect(try visit(port: server.port, forwardedFor: "6.6.6.6") == 200)
        // From the trusted address, it is.
        let trusted = try RawHTTPClient(port: server.port)
        _ = try trusted.request("GET", "/addfriend?code=TEST123", host: "rowhni.com", headers: [("X-Forwarded-For", "203.0.113.9")])
        let status = try #require(server.stop())
        #expect(status.written == 4)
        let addresses = try LogReader(databasePath: folder.path + "/log.sqlite").rows(LogFilter()).map(\.clientAddress)
        #expect(addresses.sorted { ($0 ?? "") < ($1 ?? "") } == ["127.0.5.0", "127.0.5.0", "127.0.5.0", "203.0.113.0"])
    }

    @Test func badProxyEntriesAreConfigErrorsWithTheirPath() throws {
        let found = problems(in: configText(server: #"{"trustedProxies": ["10.0.0.0/8", "proxy.internal"]}"#))
        let entry = try #require(found.first { $0.path.description == "server.trustedProxies[1]" }, "\(found)")
        #expect(entry.problem.contains("not an IP address or network"))
    }
}

private struct HarnessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
