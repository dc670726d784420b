import Foundation
import OrderedJSON

/// Reads `server.admin`: the admin listener's address and port, its token file, session length and TLS.
struct AdminSectionParser {
    static let allowedKeys = ["listen", "tokenFile", "sessionHours", "tls", "limits"]
    static let tokenFix = "write the token (at least 16 characters, e.g. from `openssl rand -hex 32`) into a file only its owner can read (chmod 600)"

    let problems: ConfigurationProblems
    let paths: PathResolver

    func read(_ server: ConfigObjectReader) -> AdminSettings {
        var settings = AdminSettings.defaults
        guard let reader = server.object("admin", what: "the admin listener settings", allowedKeys: Self.allowedKeys) else { return settings }
        if let listen = reader.object("listen", what: "the admin listen settings", allowedKeys: ServerSectionParser.listenKeys) {
            if let address = listen.string("address", fix: ServerSectionParser.addressFix) {
                if ServerSectionParser.isListenAddress(address) {
                    settings.listenAddress = address
                } else {
                    problems.add(
                        listen.path.appending("address"), "\"\(address)\" is not an IP address",
                        fix: "use \"127.0.0.1\" (this machine only) or another IP address")
                }
            }
            settings.port = listen.integer("port", in: 0...65535, default: settings.port, meaning: "TCP port of the admin listener; 0 picks a free one")
        }
        settings.sessionHours = reader.integer("sessionHours", in: 1...720, default: settings.sessionHours, meaning: "hours a dashboard login lasts")
        settings.tls = reader.bool("tls", default: settings.tls)
        if let limits = reader.object("limits", what: "the admin listener's limits", allowedKeys: ["connections", "connectionTimeoutSeconds"]) {
            settings.connectionLimit = limits.integer(
                "connections", in: 1...100_000, default: settings.connectionLimit, meaning: "most admin connections open at once")
            settings.connectionTimeoutSeconds = limits.integer(
                "connectionTimeoutSeconds", in: 1...3600, default: settings.connectionTimeoutSeconds, meaning: "seconds an idle admin connection stays open")
        }
        if let file = reader.string("tokenFile", fix: Self.tokenFix) {
            let path = paths.resolve(file)
            settings.tokenFile = path
            settings.fileToken = readToken(path, at: reader.path.appending("tokenFile"))
        }
        return settings
    }

    /// The token in `path`, or a problem: missing, readable by everyone, empty or too short. The
    /// token itself never appears in a message.
    private func readToken(_ path: String, at jsonPath: JSONPath) -> AdminToken? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            problems.add(jsonPath, "the token file \(path) does not exist or is not a file", fix: Self.tokenFix)
            return nil
        }
        if info.st_mode & S_IROTH != 0 {
            problems.add(
                jsonPath, "the token file \(path) can be read by every user of this machine (mode \(String(info.st_mode & 0o777, radix: 8)))",
                fix: "run `chmod 600 \(path)` (the owner alone may read it)")
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            problems.add(jsonPath, "the token file \(path) cannot be read as UTF-8 text", fix: Self.tokenFix)
            return nil
        }
        // One trailing newline is what editors and `echo` leave; it is not part of the token.
        let trimmed = text.hasSuffix("\r\n") ? String(text.dropLast(2)) : text.hasSuffix("\n") ? String(text.dropLast()) : text
        guard let token = AdminToken(trimmed) else {
            problems.add(jsonPath, "the token in \(path) is unusable: \(AdminToken.problem(with: trimmed))", fix: Self.tokenFix)
            return nil
        }
        return token
    }
}
