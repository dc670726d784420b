import ACME
import Foundation
import OrderedJSON

/// Reads `server.tls.acme` and checks what it conflicts with: certificate files (in the file or
/// from `--tls-cert`/`--tls-key`), `tls.http: "off"` (HTTP-01 is answered on the plain listener),
/// and hosts HTTP-01 cannot validate (IP addresses, wildcards).
struct ACMESectionParser {
    static let allowedKeys = ["directory", "email", "agreeToTerms", "caCertificate", "storage", "keyType", "renewDaysBefore"]
    static let path = TLSSection.path.appending("acme")

    let problems: ConfigurationProblems
    let paths: PathResolver

    /// The settings, or `nil` when `tls` has no `acme` (or it has problems, which are recorded).
    func read(_ tls: ConfigObjectReader) -> ACMESettings? {
        guard let reader = tls.object("acme", what: "the ACME settings", allowedKeys: Self.allowedKeys) else { return nil }
        for key in ["certificate", "key"] where tls.has(key) {
            problems.add(
                tls.path.appending(key), "\"\(key)\" is given beside \"acme\"",
                fix: "remove \"certificate\" and \"key\" to have ACME get the certificates, or remove \"acme\" to serve the files")
        }
        let before = problems.items.count
        let directory = reader.string(
            "directory", required: true, fix: "give the ACME directory URL, e.g. \"https://acme-v02.api.letsencrypt.org/directory\"")
        if let directory, URL(string: directory)?.scheme?.lowercased() != "https" || URL(string: directory)?.host == nil {
            problems.add(
                reader.path.appending("directory"), "\"\(directory)\" is not an https:// URL",
                fix: "give the CA's directory URL, e.g. \"https://acme-v02.api.letsencrypt.org/directory\" (ACME runs over HTTPS only)")
        }
        let email = reader.string("email", required: true, fix: "give the address the CA writes to about expiring certificates, e.g. \"ops@rowhni.com\"")
        if let email, !Self.isAddress(email) {
            problems.add(reader.path.appending("email"), "\"\(email)\" is not an email address", fix: "write one address such as \"ops@rowhni.com\"")
        }
        let agreed = reader.bool("agreeToTerms", default: false)
        if !agreed && (reader.value("agreeToTerms").map { if case .bool = $0 { true } else { false } } ?? true) {
            problems.add(
                reader.path.appending("agreeToTerms"), "the CA's terms of service are not agreed to",
                fix: "read the terms the directory links (\"meta\".\"termsOfService\") and set \"agreeToTerms\": true")
        }
        let ca = reader.string("caCertificate", fix: "give the PEM file of the CA that signs the ACME server's HTTPS certificate").map(paths.resolve)
        if let ca, !((try? String(contentsOfFile: ca, encoding: .utf8))?.contains("-----BEGIN CERTIFICATE-----") ?? false) {
            problems.add(
                reader.path.appending("caCertificate"), "\(ca) is no readable PEM certificate",
                fix: "give the PEM file (-----BEGIN CERTIFICATE-----) of the CA that signs the ACME server's HTTPS, or leave it out to trust the system's")
        }
        let storage = paths.resolve(reader.string("storage", fix: "give a folder for keys and certificates, e.g. \"data/acme\"") ?? ACMESettings.defaultStorage)
        var keyType = ACMECertificateKeyType.ecdsaP256
        let keyTypes = ACMECertificateKeyType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        if let text = reader.string("keyType", fix: "use \(keyTypes)") {
            if let type = ACMECertificateKeyType(rawValue: text) {
                keyType = type
            } else {
                problems.add(reader.path.appending("keyType"), "\"\(text)\" is not a key type", fix: "use \(keyTypes)")
            }
        }
        let renew = reader.has("renewDaysBefore") ? reader.integer("renewDaysBefore", in: 1...365, default: 30, meaning: "days before expiry") : nil
        guard problems.items.count == before, let directory, let email else { return nil }
        return ACMESettings(
            directory: directory, email: email, agreeToTerms: agreed, caCertificatePath: ca, storagePath: storage, keyType: keyType, renewDaysBefore: renew)
    }

    /// The checks that need the whole configuration: the plain listener, the command line's
    /// certificate, and the sites' hosts.
    static func crossCheck(_ configuration: UncheckedConfiguration, problems: ConfigurationProblems) {
        guard let tls = configuration.tls, tls.acme != nil else { return }
        if tls.plainHTTP == .off {
            problems.add(
                TLSSection.path.appending("http"), "\"http\": \"off\" leaves no plain listener, and ACME's HTTP-01 challenge is answered there",
                fix: "use \"redirect\" (pages go to HTTPS, challenges are answered) and let port 80 reach the plain listener")
        }
        if let flag = tls.certificateFlag ?? tls.keyFlag {
            problems.add(
                path, "\(flag) gives a certificate, but \"acme\" gets them",
                fix: "leave out --tls-cert and --tls-key, or remove \"acme\" from the config to serve the files")
        }
        for site in configuration.sites {
            for (host, index) in site.hosts {
                let hostPath = site.path.appending("hosts").appending(index)
                if host.hasPrefix("*.") {
                    problems.add(
                        hostPath, "\"\(host)\" is a wildcard, which ACME's HTTP-01 challenge cannot validate",
                        fix: "list each host by name, or serve a wildcard certificate from files (\"certificate\" and \"key\" instead of \"acme\")")
                } else if Self.isIPAddress(host) {
                    problems.add(
                        hostPath, "\"\(host)\" is an IP address, for which ACME's HTTP-01 gets no certificate",
                        fix: "list the host name clients use, or serve a certificate from files for the address")
                }
            }
        }
    }

    /// One address: a local part and a domain with a dot, no spaces, brackets or commas.
    static func isAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix(".") else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && !"<>(),;:\"[]\\".unicodeScalars.contains($0) }
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
