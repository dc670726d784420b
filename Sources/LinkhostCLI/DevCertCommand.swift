import ArgumentParser
import DevCertificates
import Foundation
import LinkhostKit

/// `linkhost dev-cert --host H`: a local CA (made once) and a certificate for the given hosts, for
/// serving HTTPS to a test iPhone that trusts the CA.
struct DevCertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-cert",
        abstract: "Make a local certificate authority and an HTTPS certificate for device testing.",
        usage: "linkhost dev-cert --host <host> [--host <host> ...] [--out <path>]",
        discussion: """
            The CA is made once in the output folder and reused; install linkhost-dev-ca.crt on the \
            iPhone and turn on full trust for it (Settings › General › About › Certificate Trust \
            Settings). Never use these files on a public server.
            """
    )

    @Option(name: .long, help: ArgumentHelp("A host name or IP address for the certificate (required); repeat for more.", valueName: "host"))
    var host: [String] = []

    @Option(name: .long, help: ArgumentHelp("Folder for the CA and the certificate.", valueName: "path"))
    var out: String = "certs"

    func validate() throws {
        if host.isEmpty { throw ValidationError("give at least one --host, e.g. --host rowhni.com") }
        for name in host where HostLookup.normalize(name) == nil || name.contains("/") || name.contains(" ") {
            throw ValidationError("--host \(name) is not a host name or IP address")
        }
    }

    func run() throws {
        let hosts = host.map { HostLookup.normalize($0) ?? $0 }
        do {
            let (authority, created) = try DevCertificateAuthority.loadOrCreate(in: out)
            let issued = try authority.issue(hosts: hosts)
            let paths = try issued.write(to: out, name: hosts[0])
            let folder = (out as NSString).standardizingPath
            StandardOutput.write(
                """
                \(created ? "made a new CA" : "reused the CA") in \(folder)/\(DevCertificateAuthority.certificateFileName)
                certificate for \(hosts.joined(separator: ", ")): \(paths.certificate)
                private key: \(paths.key)

                serve:   linkhost serve --tls-cert \(paths.certificate) --tls-key \(paths.key)
                check:   (once a site in your config lists \(hosts[0]) and serve runs with these files)
                         curl --cacert \(folder)/\(DevCertificateAuthority.certificateFileName) --resolve \(hosts[0]):8443:127.0.0.1 https://\(hosts[0]):8443/.well-known/apple-app-site-association
                iPhone:  send \(folder)/\(DevCertificateAuthority.phoneFileName) to the phone, install the profile, then trust it in
                         Settings › General › About › Certificate Trust Settings

                """)
        } catch {
            throw CLIFailure.unusableInput("\(error)")
        }
    }
}
