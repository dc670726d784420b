import Foundation
import HTTPServing
import OrderedJSON

/// Reads the `server` object: listening, unknown hosts, the AASA cache header, the public folder,
/// limits, the pid file, and (through `TLSSectionParser` and `CDNCheckSectionParser`) HTTPS and the
/// CDN check.
struct ServerSectionParser {
    static let allowedKeys = [
        "listen", "unknownHost", "aasaCacheControl", "publicDirectory", "publicScheme", "limits", "tls", "admin", "pidFile", "cdnCheck", "trustedProxies",
        "reload",
    ]
    static let reloadKeys = ["checkAgainstLogDays", "refuseIfLinksStopOpening"]
    static let listenKeys = ["address", "port"]
    static let limitsKeys = [
        "threads", "connections", "connectionsPerAddress", "connectionTimeoutSeconds", "connectionMemoryBytes", "requestBodyBytes", "shutdownGraceSeconds",
        "drainSeconds", "headSeconds", "bodyBytesPerSecond",
    ]
    static let addressFix = "use an IP address such as \"0.0.0.0\" (all IPv4), \"::\" (all IPv6 and IPv4) or \"127.0.0.1\""

    let problems: ConfigurationProblems
    let paths: PathResolver

    /// The settings (`tls` left empty: the certificate is read after the overrides) and the TLS section.
    func read(_ root: ConfigObjectReader) -> (settings: ServerSettings, tls: TLSSection?) {
        var settings = ServerSettings.defaults
        settings.publicDirectory = paths.resolve(settings.publicDirectory)
        guard let reader = root.object("server", what: "the server settings", allowedKeys: Self.allowedKeys) else {
            return (settings, nil)
        }
        if let listen = reader.object("listen", what: "the listen settings", allowedKeys: Self.listenKeys) {
            readListen(listen, into: &settings)
        }
        if let policy = reader.value("unknownHost") {
            switch policy {
            case .string("404"):
                settings.unknownHost = .notFound
            case .string(let id):
                // Whether a site has this id is checked once every site is read.
                settings.unknownHost = .site(id)
            default:
                problems.add(
                    reader.path.appending("unknownHost"), "\(policy.kindDescription) is neither \"404\" nor the id of a site",
                    fix: "write \"404\", or a site's id in quotes")
            }
        }
        if let cacheControl = reader.string("aasaCacheControl", fix: "write a Cache-Control value such as \"public, max-age=3600\"") {
            if cacheControl.isEmpty || cacheControl.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
                problems.add(
                    reader.path.appending("aasaCacheControl"), "the value is empty or has control characters",
                    fix: "write a Cache-Control value such as \"public, max-age=3600\"")
            } else {
                settings.aasaCacheControl = cacheControl
            }
        }
        if let folder = reader.string("publicDirectory", fix: "write the folder holding templates/, static/ and locales/, e.g. \"Public\"") {
            if folder.isEmpty {
                problems.add(reader.path.appending("publicDirectory"), "the folder name is empty", fix: "write e.g. \"Public\"")
            } else {
                settings.publicDirectory = paths.resolve(folder)
            }
        }
        if let scheme = reader.string("publicScheme", fix: "write \"https\" (behind a TLS terminator) or \"http\"") {
            if ["http", "https"].contains(scheme) {
                settings.publicScheme = scheme
            } else {
                problems.add(
                    reader.path.appending("publicScheme"), "\"\(scheme)\" is neither \"https\" nor \"http\"",
                    fix: "write \"https\" (universal links need HTTPS) or \"http\" for local tests")
            }
        }
        if let limits = reader.object("limits", what: "the limits", allowedKeys: Self.limitsKeys) {
            readLimits(limits, into: &settings)
        }
        settings.admin = AdminSectionParser(problems: problems, paths: paths).read(reader)
        let proxiesFix = "list the addresses or networks of your load balancers and TLS terminators, e.g. [\"10.0.0.0/8\", \"127.0.0.1\"]"
        if let entries = reader.strings("trustedProxies", fix: proxiesFix) {
            var networks: [TrustedProxies.Network] = []
            for (text, path) in entries {
                if let network = TrustedProxies.Network(text) {
                    networks.append(network)
                } else {
                    problems.add(path, "\"\(text)\" is not an IP address or network (address/prefix)", fix: proxiesFix)
                }
            }
            settings.trustedProxies = TrustedProxies(networks)
        }
        if let pidFile = reader.string("pidFile", fix: "write the file serve keeps its process id in, e.g. \"/run/linkhost.pid\"") {
            if pidFile.isEmpty {
                problems.add(reader.path.appending("pidFile"), "the file name is empty", fix: "write e.g. \"/run/linkhost.pid\", or leave the key out")
            } else {
                settings.pidFile = paths.resolve(pidFile)
            }
        }
        if let reload = reader.object("reload", what: "the reload settings", allowedKeys: Self.reloadKeys) {
            settings.reload.checkAgainstLogDays = reload.integer(
                "checkAgainstLogDays", in: 0...365, default: settings.reload.checkAgainstLogDays,
                meaning: "days of logged links a reload checks the new AASA files against; 0 turns the check off")
            settings.reload.refuseIfLinksStopOpening = reload.bool("refuseIfLinksStopOpening", default: settings.reload.refuseIfLinksStopOpening)
        }
        settings.cdnCheck = CDNCheckSectionParser(problems: problems).read(reader)
        let tls = TLSSectionParser(problems: problems, paths: paths).read(reader)
        return (settings, tls)
    }

    private func readListen(_ listen: ConfigObjectReader, into settings: inout ServerSettings) {
        if let address = listen.string("address", fix: Self.addressFix) {
            if Self.isListenAddress(address) {
                settings.listenAddress = address
            } else {
                problems.add(listen.path.appending("address"), "\"\(address)\" is not an IP address", fix: Self.addressFix)
            }
        }
        settings.port = listen.integer("port", in: 0...65535, default: settings.port, meaning: "TCP port; 0 picks a free one")
    }

    private func readLimits(_ limits: ConfigObjectReader, into settings: inout ServerSettings) {
        settings.threads = limits.integer("threads", in: 0...256, default: settings.threads, meaning: "worker threads; 0 means one per processor")
        settings.connectionLimit = limits.integer("connections", in: 1...1_000_000, default: settings.connectionLimit, meaning: "most connections open at once")
        settings.connectionsPerAddress = limits.integer(
            "connectionsPerAddress", in: 0...1_000_000, default: settings.connectionsPerAddress,
            meaning: "most connections from one client address; 0 turns the limit off, as behind a proxy")
        settings.connectionTimeoutSeconds = limits.integer(
            "connectionTimeoutSeconds", in: 1...3600, default: settings.connectionTimeoutSeconds, meaning: "seconds an idle connection is kept")
        settings.headSeconds = limits.integer(
            "headSeconds", in: 1...3600, default: settings.headSeconds,
            meaning: "seconds a request head may take, idle time before it included")
        settings.bodyBytesPerSecond = limits.integer(
            "bodyBytesPerSecond", in: 0...1_073_741_824, default: settings.bodyBytesPerSecond,
            meaning: "slowest a request body may arrive after its first second; 0 turns the floor off")
        settings.connectionMemoryBytes = limits.integer(
            "connectionMemoryBytes", in: 4096...16_777_216, default: settings.connectionMemoryBytes,
            meaning: "bytes per connection for the request line and headers")
        settings.requestBodyBytes = limits.integer(
            "requestBodyBytes", in: 0...67_108_864, default: settings.requestBodyBytes, meaning: "largest request body accepted")
        settings.shutdownGraceSeconds = limits.integer(
            "shutdownGraceSeconds", in: 0...600, default: settings.shutdownGraceSeconds, meaning: "seconds a stop waits for requests in flight")
        settings.drainSeconds = limits.integer(
            "drainSeconds", in: 0...60, default: settings.drainSeconds,
            meaning: "seconds a stop answers requests on open connections before closing the idle ones")
    }

    /// An IP address literal (v4 or v6), or `localhost`: what the listener can bind.
    static func isListenAddress(_ text: String) -> Bool {
        var ipv4 = in_addr()
        var ipv6 = in6_addr()
        return text == "localhost" || inet_pton(AF_INET, text, &ipv4) == 1 || inet_pton(AF_INET6, text, &ipv6) == 1
    }
}
