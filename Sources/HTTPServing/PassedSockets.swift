import Glibc

/// Listening sockets a service manager passed to this process (socket activation): systemd's
/// `LISTEN_PID`/`LISTEN_FDS`/`LISTEN_FDNAMES` protocol, descriptors from 3 on (sd_listen_fds(3)).
///
/// A socket held by the manager outlives the process, so a connection made while linkhost
/// restarts waits in the backlog instead of being refused. The names `http`, `https` and `admin`
/// (`FileDescriptorName=` in the .socket unit) say which listener each socket is; one unnamed
/// socket is `http`.
public struct PassedSockets: Sendable, Equatable {
    public var http: Int32?
    public var https: Int32?
    public var admin: Int32?

    public init(http: Int32? = nil, https: Int32? = nil, admin: Int32? = nil) {
        self.http = http
        self.https = https
        self.admin = admin
    }

    /// None passed.
    public static let none = PassedSockets()

    /// Whether any socket was passed.
    public var isEmpty: Bool { self == .none }

    /// The first descriptor of the protocol (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// Why the passed sockets cannot be used; `serve` then refuses to start (serving on sockets of
    /// its own would compete with the manager's, which go on accepting into a backlog no one reads).
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// The sockets the environment passes to the process `processIdentifier`; none when
    /// `LISTEN_FDS` is unset or `LISTEN_PID` names another process (the variables were inherited,
    /// not meant for this one).
    public static func from(environment: [String: String], processIdentifier: Int32) throws(Problem) -> PassedSockets {
        guard let countText = environment["LISTEN_FDS"] else { return .none }
        guard let pidText = environment["LISTEN_PID"], Int32(pidText) == processIdentifier else { return .none }
        guard let count = Int32(countText), (0...64).contains(count) else {
            throw Problem(description: "LISTEN_FDS is \"\(countText)\"; the service manager must pass a count of sockets (0 to 64)")
        }
        if count == 0 { return .none }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) }
        if let names, names.count != Int(count) {
            throw Problem(description: "LISTEN_FDNAMES names \(names.count) socket(s) but LISTEN_FDS passes \(count)")
        }
        var sockets = PassedSockets()
        for index in 0..<count {
            let descriptor = firstDescriptor + index
            let name = names?[Int(index)] ?? ""
            let known = ["http", "https", "admin"]
            let role = known.contains(name) ? name : (count == 1 ? "http" : nil)
            switch role {
            case "http" where sockets.http == nil: sockets.http = descriptor
            case "https" where sockets.https == nil: sockets.https = descriptor
            case "admin" where sockets.admin == nil: sockets.admin = descriptor
            case nil:
                throw Problem(
                    description:
                        "the service manager passed \(count) sockets and socket \(index + 1) is named \"\(name)\"; name each with FileDescriptorName=http, https or admin in the .socket unit"
                )
            default:
                throw Problem(description: "the service manager passed two sockets named \"\(name)\"; pass one per listener")
            }
        }
        return sockets
    }

    /// Reads the sockets passed to this process and clears the variables, so a program this one
    /// starts does not take them for its own (sd_listen_fds(3), `unset_environment`).
    public static func takeFromEnvironment(_ environment: [String: String]) throws(Problem) -> PassedSockets {
        defer {
            for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) }
        }
        return try from(environment: environment, processIdentifier: getpid())
    }
}
