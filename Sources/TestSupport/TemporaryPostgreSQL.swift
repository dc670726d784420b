import Foundation
import Glibc

/// A throwaway PostgreSQL server for a test: a cluster made by `initdb` in a temporary folder (the
/// next one is made ahead, while the test runs: `ClusterSupply`), started with `pg_ctl` on a free
/// port of 127.0.0.1 with a password (scram-sha-256), stopped (by its process id) and removed when
/// the value goes away. `initdb` refuses to run as root, so as root the cluster belongs to the
/// `postgres` user that Debian's package creates and the commands run through `runuser`.
public final class TemporaryPostgreSQL: Sendable {
    /// Why a cluster cannot be made here.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public let port: Int
    public let password: String
    /// `postgresql://linkhost:<password>@127.0.0.1:<port>/postgres`.
    public let url: String
    private let folder: TemporaryDirectory
    private let binaries: String
    private let owner: String?

    private var dataDirectory: String { folder.path + "/data" }

    /// The folder with `initdb`, `pg_ctl` and `postgres`, or `nil` when PostgreSQL is not installed.
    public static var binariesFolder: String? {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
            .first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") }
    }

    /// Whether tests may skip when PostgreSQL is missing: never in CI, where scripts/test installs it.
    public static var mayBeSkipped: Bool {
        ProcessInfo.processInfo.environment["CI"] != "true" && binariesFolder == nil
    }

    /// Makes (or takes the one made ahead) and starts a cluster.
    public init() throws {
        guard let binaries = Self.binariesFolder else {
            throw Unavailable(description: "PostgreSQL is not installed (apt-get install postgresql)")
        }
        self.binaries = binaries
        owner = geteuid() == 0 ? "postgres" : nil
        let cluster = try ClusterSupply.shared.take { [owner] folder in try Self.makeCluster(in: folder, binaries: binaries, owner: owner) }
        folder = cluster.folder
        password = cluster.password
        port = try FreePort.find()
        url = "postgresql://linkhost:\(password)@127.0.0.1:\(port)/postgres"
        try start()
    }

    /// A new cluster in `folder` (its data directory in `data`) and its password: `initdb` without
    /// waiting for the disk (`--no-sync`: a throwaway cluster need not survive a crash of the machine).
    private static func makeCluster(in folder: TemporaryDirectory, binaries: String, owner: String?) throws -> ClusterSupply.Cluster {
        let password = (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined()
        try folder.write("password", password + "\n")
        if let owner {
            guard let account = getpwnam(owner) else { throw Unavailable(description: "there is no \(owner) user to run PostgreSQL as root") }
            // The server's user must reach its folder: give others passage (not reading) through the
            // temporary folders above it that are ours.
            var ancestor = (folder.path as NSString).deletingLastPathComponent
            while ancestor != "/", ancestor.count > 1 {
                var info = stat()
                if stat(ancestor, &info) == 0, info.st_uid == geteuid(), info.st_mode & S_IXOTH == 0 {
                    chmod(ancestor, (info.st_mode & 0o7777) | S_IXOTH)
                }
                ancestor = (ancestor as NSString).deletingLastPathComponent
            }
            for path in [folder.path, folder.path + "/password"] { chown(path, account.pointee.pw_uid, account.pointee.pw_gid) }
        }
        let made = try run(
            binaries, owner, "initdb",
            [
                "-D", folder.path + "/data", "-U", "linkhost", "--auth=scram-sha-256", "--pwfile=\(folder.path)/password", "-E", "UTF8", "--locale=C",
                "--no-sync",
            ])
        guard made.status == 0 else { throw Unavailable(description: "initdb failed: \(made.error)") }
        return ClusterSupply.Cluster(folder: folder, password: password)
    }

    deinit {
        stop()
    }

    /// Starts the server (again) on the same port and waits until it takes connections.
    public func start() throws {
        let options = "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=50"
        let started = try run("pg_ctl", ["-D", dataDirectory, "-l", folder.path + "/server.log", "-o", options, "-w", "-t", "60", "start"])
        guard started.status == 0 else {
            let log = (try? String(contentsOfFile: folder.path + "/server.log", encoding: .utf8)) ?? ""
            throw Unavailable(description: "pg_ctl start failed: \(started.error) \(log)")
        }
    }

    /// Stops the server: a fast shutdown (open connections are cut, as in a restart) sent to the
    /// postmaster's process id, then waits for it to be gone.
    public func stop() {
        guard let text = try? String(contentsOfFile: dataDirectory + "/postmaster.pid", encoding: .utf8),
            let first = text.split(separator: "\n").first, let pid = pid_t(first), pid > 0
        else { return }
        guard kill(pid, SIGINT) == 0 else { return }
        for _ in 0..<600 {
            if kill(pid, 0) != 0 && errno == ESRCH { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
    }

    /// Stops and starts the server, cutting every connection.
    public func restart() throws {
        stop()
        try start()
    }

    /// Runs one of the server's programs, as the cluster's owner.
    private func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        try Self.run(binaries, owner, program, arguments)
    }

    private static func run(_ binaries: String, _ owner: String?, _ program: String, _ arguments: [String]) throws -> (
        status: Int32, output: String, error: String
    ) {
        if let owner {
            return try ChildProcess.run("/usr/sbin/runuser", ["-u", owner, "--", "\(binaries)/\(program)"] + arguments, timeoutSeconds: 120)
        }
        return try ChildProcess.run("\(binaries)/\(program)", arguments, timeoutSeconds: 120)
    }
}
