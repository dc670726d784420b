import DevCertificates
import Foundation
import LinkhostKit

/// What `serve` prints once it listens: where it listens, and per site the URLs to try and the
/// entitlement strings the app needs.
struct StartupBanner {
    let server: LinkhostServer
    let ingestKeys: IngestKeys

    var text: String {
        let configuration = server.configuration
        // The address really bound, first: a test server on the shipped config (0.0.0.0) is reachable
        // from the network, and a line showing only its loopback URL would say otherwise. The URLs
        // to use from this machine end the line.
        let urls = server.baseURLs.joined(separator: " and ")
        var lines = [
            server.listensOnAllAddresses
                ? "linkhost \(LinkhostVersion.current) listening on all addresses (\(server.listenAddress)), reachable from other machines; from this one: \(urls)"
                : "linkhost \(LinkhostVersion.current) listening on \(urls)"
        ]
        if server.servesPassedSockets {
            // A passed socket wins over the config's address and port: say so, or an operator
            // changing server.listen would wonder why nothing moved.
            lines[0] += " (on the socket the service manager passed; server.listen and server.tls.port are not used)"
        }
        if let tls = configuration.server.tls {
            // The first expiry of what is served: the date an operator must renew by.
            let expiry = server.certificateExpiries.map(\.expiresAt).min().map {
                Date(timeIntervalSince1970: TimeInterval($0)).formatted(.iso8601.year().month().day())
            }
            if let acme = tls.acme {
                let state =
                    server.servesCertificate
                    ? "serving the stored ones" + (expiry.map { ", the first expiring \($0)" } ?? "") : "handshakes succeed once the first is issued"
                lines.append(
                    "HTTPS on port \(tls.port) with certificates from \(acme.directory) (\(state); `linkhost certificates` shows them); plain HTTP: \(tls.plainHTTP.rawValue)"
                )
            } else {
                lines.append("HTTPS with \(tls.certificatePath)\(expiry.map { " (valid until \($0))" } ?? ""); plain HTTP: \(tls.plainHTTP.rawValue)")
            }
        }
        // A certificate from `linkhost dev-cert` sits beside its CA; curl must be told to trust that CA.
        var trust = ""
        if let certificate = configuration.server.tls?.certificatePath, !certificate.isEmpty {
            let authority = ((certificate as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
                DevCertificateAuthority.certificateFileName)
            if FileManager.default.fileExists(atPath: authority) { trust = " --cacert \(authority)" }
        }
        // The names the certificate is for: a host it does not name fails curl's (and iOS's) check.
        let certifiedNames = configuration.server.tls.flatMap { DevCertificateAuthority.hostNames(inCertificateChainPEM: $0.certificatePEM) }
        for site in configuration.sites {
            lines.append("site \(site.id) (\(site.app.name)):")
            for host in site.hosts {
                let probeHost = host.hasPrefix("*.") ? "www" + host.dropFirst(1) : host
                for base in server.baseURLs {
                    if base.hasPrefix("https"), let names = certifiedNames, !DevCertificateAuthority.names(names, cover: probeHost) {
                        lines.append("  (HTTPS: the certificate does not name \(probeHost); it is for \(names.joined(separator: ", ")))")
                        continue
                    }
                    let client =
                        base.hasPrefix("https")
                        ? "curl -sI\(trust) --resolve \(probeHost):\(server.tlsPort):127.0.0.1 https://\(probeHost):\(server.tlsPort)"
                        : "curl -sI -H 'Host: \(probeHost)' \(base)"
                    lines.append("  \(client)/.well-known/apple-app-site-association")
                    if site.assetLinks != nil { lines.append("  \(client)/.well-known/assetlinks.json") }
                }
            }
            let entitlements = site.hosts.map { "applinks:\($0)" }.joined(separator: " ")
            lines.append("  entitlements: \(entitlements)   (device testing: add ?mode=developer)")
            lines.append(
                ingestKeys.isEnabled(forSite: site.id)
                    ? "  app opens: on (POST /v1/opens with the key from \(IngestKeys.variable(forSite: site.id)) or \(IngestKeys.sharedVariable))"
                    : "  app opens: off (set \(IngestKeys.variable(forSite: site.id)) or \(IngestKeys.sharedVariable) to take POST /v1/opens)")
        }
        if case .site(let id) = configuration.server.unknownHost {
            lines.append("requests for other hosts are answered by site \(id)")
        }
        let pid = ProcessInfo.processInfo.processIdentifier
        if let pidFile = configuration.server.pidFile {
            lines.append("pid \(pid) in \(pidFile): `linkhost reload --pid-file \(pidFile)` (or kill -HUP \(pid)) reads the config again")
        } else {
            lines.append("pid \(pid): kill -HUP \(pid) reads the config again")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
