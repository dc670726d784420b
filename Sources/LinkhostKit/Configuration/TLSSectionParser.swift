import OrderedJSON

/// Reads `server.tls`: certificate and key paths, port, and what the plain-HTTP listener does.
/// The files themselves are read later (`TLSSection.settings`), after the command line's overrides.
struct TLSSectionParser {
    static let allowedKeys = ["certificate", "key", "port", "publicPort", "http", "hsts", "priorities", "acme"]

    let problems: ConfigurationProblems
    let paths: PathResolver

    /// The section, or `nil` when the server settings have none (or it is not an object).
    func read(_ server: ConfigObjectReader) -> TLSSection? {
        guard let reader = server.object("tls", what: "the TLS settings", allowedKeys: Self.allowedKeys) else { return nil }
        var section = TLSSection()
        let files = !reader.has("acme")
        section.certificatePath = reader.string(
            "certificate", required: files, fix: "give the PEM certificate chain's path, e.g. \"certs/rowhni.com.pem\" (linkhost dev-cert makes one)"
        ).map(paths.resolve)
        section.keyPath = reader.string("key", required: files, fix: "give the PEM private key's path, e.g. \"certs/rowhni.com-key.pem\"").map(paths.resolve)
        section.port = reader.integer("port", in: 0...65535, default: section.port, meaning: "HTTPS port")
        if reader.has("publicPort") {
            section.publicPort = reader.integer("publicPort", in: 1...65535, default: section.port, meaning: "HTTPS port clients reach, for redirects")
        }
        if let text = reader.string("http", fix: "use one of \(TLSSettings.PlainHTTP.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))") {
            if let mode = TLSSettings.PlainHTTP(rawValue: text) {
                section.plainHTTP = mode
            } else {
                problems.add(
                    reader.path.appending("http"), "\"\(text)\" is not a plain-HTTP mode",
                    fix: "use \"redirect\" (pages go to HTTPS, the AASA file stays), \"serve\" or \"off\"")
            }
        }
        if let value = reader.value("hsts") {
            switch value {
            case .string(let text) where !text.isEmpty && !text.utf8.contains(where: { $0 < 0x20 }):
                section.hsts = text
            case .bool(false):
                section.hsts = nil
            default:
                problems.add(
                    reader.path.appending("hsts"), "\"hsts\" must be a Strict-Transport-Security value or false",
                    fix: "write e.g. \"max-age=31536000\", or false to send none")
            }
        }
        if let text = reader.string("priorities", fix: Self.prioritiesFix) {
            // GnuTLS judges the string when the listener starts; here only what can never be one.
            if text.isEmpty || !text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) {
                problems.add(reader.path.appending("priorities"), "\"priorities\" must be a GnuTLS priority string", fix: Self.prioritiesFix)
            } else {
                section.priorities = text
            }
        }
        section.acme = ACMESectionParser(problems: problems, paths: paths).read(reader)
        return section
    }

    static let prioritiesFix =
        "leave it out for the built-in profile (TLS 1.2 and 1.3, AEAD ciphers, forward secrecy), or write a GnuTLS priority string such as \"SECURE256:-VERS-ALL:+VERS-TLS1.3\""
}
