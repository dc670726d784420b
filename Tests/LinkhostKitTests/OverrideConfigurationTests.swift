import Foundation
import LinkhostKit
import TestSupport
import Testing

/// Command-line overrides go into the config before its checks, and are checked like the file.
@Suite("Configuration: overrides")
struct OverrideConfigurationTests {
    private func overrides(port: Int? = nil, address: String? = nil, tlsPort: Int? = nil, database: String? = nil) -> ConfigurationOverrides {
        var overrides = ConfigurationOverrides()
        overrides.port = port.map { .init($0, from: "--port") }
        overrides.listenAddress = address.map { .init($0, from: "--host") }
        overrides.tlsPort = tlsPort.map { .init($0, from: "--tls-port") }
        overrides.databasePath = database.map { .init($0, from: "--log-db") }
        return overrides
    }

    private func problems(_ text: String, _ overrides: ConfigurationOverrides) -> [String] {
        do {
            _ = try ConfigurationLoader.parse(Array(text.utf8), baseDirectory: ProjectPaths.root, overrides: overrides)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func overridesReplaceTheFilesValues() throws {
        let text = configText(server: #"{"listen": {"address": "0.0.0.0", "port": 8080}}"#, log: #"{"database": "data/x.sqlite"}"#)
        let configuration = try ConfigurationLoader.parse(
            Array(text.utf8), baseDirectory: ProjectPaths.root, overrides: overrides(port: 9001, address: "127.0.0.1", database: "/var/tmp/hits.sqlite"))
        #expect(configuration.server.port == 9001)
        #expect(configuration.server.listenAddress == "127.0.0.1")
        #expect(configuration.log.databasePath == "/var/tmp/hits.sqlite")
    }

    /// A relative flag is taken from the current folder, as a shell user expects, not the config's.
    @Test func aRelativeDatabaseFlagIsFromTheCurrentFolder() throws {
        let configuration = try ConfigurationLoader.parse(
            Array(configText().utf8), baseDirectory: ProjectPaths.root, overrides: overrides(database: "hits.sqlite"))
        #expect(configuration.log.databasePath == FileManager.default.currentDirectoryPath + "/hits.sqlite")
    }

    @Test func theSamePortForHTTPSAndPlainHTTPIsRefusedWhereverEachCameFrom() {
        let tls = #""tls": {"certificate": "Public/static/robots.txt", "key": "Public/static/robots.txt", "port": 8443}"#
        let fromFile = problems(configText(server: #"{"listen": {"port": 8443}, \#(tls)}"#), ConfigurationOverrides())
        #expect(
            fromFile.first
                == "server.tls.port: the HTTPS port 8443 (server.tls.port) is also the plain-HTTP port (server.listen.port). Fix: give one of them another port, e.g. 8443 for HTTPS and 8080 for plain HTTP"
        )
        let fromFlags = problems(configText(server: "{\(tls)}"), overrides(port: 9000, tlsPort: 9000))
        #expect(
            fromFlags.first
                == "server.tls.port: the HTTPS port 9000 (--tls-port) is also the plain-HTTP port (--port). Fix: give one of them another port, e.g. 8443 for HTTPS and 8080 for plain HTTP"
        )
        let mixed = problems(configText(server: "{\(tls)}"), overrides(port: 8443))
        #expect(mixed.first?.contains("the HTTPS port 8443 (server.tls.port) is also the plain-HTTP port (--port)") == true)
        // With plain HTTP off there is only one listener.
        let off = problems(
            configText(server: #"{"listen": {"port": 8443}, "tls": {"certificate": "a", "key": "b", "port": 8443, "http": "off"}}"#), ConfigurationOverrides())
        #expect(!off.contains { $0.hasPrefix("server.tls.port") })
    }

    @Test func badOverridesNameTheirFlags() {
        let found = problems(configText(), overrides(port: 70000, address: "example.com", tlsPort: 8443, database: ""))
        #expect(
            found == [
                "server.listen.address: --host \"example.com\" is not an IP address. Fix: use an IP address such as \"0.0.0.0\" (all IPv4), \"::\" (all IPv6 and IPv4) or \"127.0.0.1\"",
                "server.listen.port: --port 70000 is outside 0...65535. Fix: use a port from 0 to 65535; 0 picks a free one",
                "server.tls.port: --tls-port 8443 needs HTTPS, but there is no certificate. Fix: give a certificate and key as well, or add \"tls\" to the server settings",
                "log.database: --log-db is empty. Fix: give the SQLite file's path, e.g. data/linkhost.sqlite",
            ])
    }

    @Test func aCertificateFlagAloneIsRefused() {
        var alone = ConfigurationOverrides()
        alone.tlsCertificate = .init("cert.pem", from: "--tls-cert")
        #expect(problems(configText(), alone) == ["server.tls: --tls-cert is given alone. Fix: give the certificate and its private key together, or neither"])
    }
}
