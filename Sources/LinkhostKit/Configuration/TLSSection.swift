import OrderedJSON

/// `server.tls` as written (and overridden), before the certificate and key are read: reading them
/// waits until the command line has had its say, so a file the flags replace is never opened.
struct TLSSection {
    var certificatePath: String?
    var keyPath: String?
    var port = 8443
    var publicPort: Int?
    var plainHTTP = TLSSettings.PlainHTTP.redirect
    var hsts: String? = "max-age=31536000"
    var priorities: String?
    /// `acme`: certificates from an ACME CA instead of the files (`ACMESectionParser`).
    var acme: ACMESettings?
    /// The flags that replaced the file's certificate, key and port (for messages); `nil` when the
    /// value is the file's.
    var certificateFlag: String?
    var keyFlag: String?
    var portFlag: String?

    static let path = JSONPath.root.appending("server").appending("tls")

    /// The settings with the PEM text read; `nil`, with a problem recorded, when a file is unusable.
    /// (A missing path was reported when the section was read.)
    func settings(problems: ConfigurationProblems) -> TLSSettings? {
        if let acme {
            // The certificate comes from the ACME storage when the server starts.
            return TLSSettings(
                certificatePath: "", keyPath: "", certificatePEM: "", keyPEM: "", port: port, publicPort: publicPort, plainHTTP: plainHTTP, hsts: hsts,
                priorities: priorities, acme: acme)
        }
        guard let certificatePath, let keyPath else { return nil }
        switch TLSSettings.load(certificatePath: certificatePath, keyPath: keyPath) {
        case .success(let pem):
            return TLSSettings(
                certificatePath: certificatePath, keyPath: keyPath, certificatePEM: pem.certificate, keyPEM: pem.key, port: port, publicPort: publicPort,
                plainHTTP: plainHTTP, hsts: hsts, priorities: priorities)
        case .failure(let failure):
            let isCertificate = failure.which == .certificate
            let problemPath = Self.path.appending(isCertificate ? "certificate" : "key")
            let advice = "`linkhost dev-cert --host <name>` makes a local CA and a certificate"
            if let flag = isCertificate ? certificateFlag : keyFlag {
                problems.add(problemPath, "\(flag): \(failure.problem)", fix: "check the path given to \(flag) (relative to the current folder) — \(advice)")
            } else {
                problems.add(problemPath, failure.problem, fix: "check the path (relative to the config file) — \(advice)")
            }
            return nil
        }
    }
}
