import Foundation
import Glibc

/// A throwaway PostgreSQL server for a test: a cluster in a temporary folder (a copy of one made by
/// `initdb` once per process: `ClusterTemplate`), started with `pg_ctl` on a free port of 127.0.0.1
/// with a password (scram-sha-256), stopped (by its process id) and removed when the value goes
/// away. `initdb` refuses to run as root, so as root the cluster belongs to the `postgres` user that
/// Debian's package creates and the commands run through `runuser`.
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

    /// Makes and starts a cluster.
    public init() throws {
        guard let binaries = Self.binariesFolder else {
            throw Unavailable(description: "PostgreSQL is not installed (apt-get install postgresql)")
        }
        self.binaries = binaries
        let owner = geteuid() == 0 ? "postgres" : nil
        self.owner = owner
        let template = try ClusterTemplate.shared { folder in try Self.makeTemplate(in: folder, binaries: binaries, owner: owner) }
        folder = try TemporaryDirectory("linkhost-postgresql")
        try Self.hand(folder, to: owner)
        let copied = try Self.run(owner, "/bin/cp", ["-a", template.folder.path + "/data", folder.path + "/data"])
        guard copied.status == 0 else { throw Unavailable(description: "copying the template cluster failed: \(copied.error)") }
        password = template.password
        port = try FreePort.find()
        url = "postgresql://linkhost:\(password)@127.0.0.1:\(port)/postgres"
        try start()
    }

    /// A new cluster in `folder` (its data directory in `data`); returns its password. `initdb`
    /// does not wait for the disk (`--no-sync`): a throwaway cluster need not survive a crash.
    private static func makeTemplate(in folder: TemporaryDirectory, binaries: String, owner: String?) throws -> String {
        let password = (0..<4).map { _ in String(UInt32.random(in: .min ... .max), radix: 16) }.joined()
        try folder.write("password", password + "\n")
        try hand(folder, to: owner)
        let made = try run(
            owner, "\(binaries)/initdb",
            [
                "-D", folder.path + "/data", "-U", "linkhost", "--auth=scram-sha-256", "--pwfile=\(folder.path)/password", "-E", "UTF8", "--locale=C",
                "--no-sync",
            ])
        guard made.status == 0 else { throw Unavailable(description: "initdb failed: \(made.error)") }
        return password
    }

    /// Gives `folder` and what is in it to the cluster's owner (as root), and lets it pass (not
    /// read) through the temporary folders above it that are ours.
    private static func hand(_ folder: TemporaryDirectory, to owner: String?) throws {
        guard let owner else { return }
        // getpwnam_r, not getpwnam: tests make clusters on several threads at once, and getpwnam's
        // one static record, filled by one thread while another reads it, gave a folder the wrong
        // owner ("cannot create directory …/data: Permission denied").
        var record = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(owner, &record, &buffer, buffer.count, &found) == 0, found != nil else {
            throw Unavailable(description: "there is no \(owner) user to run PostgreSQL as root")
        }
        let (uid, gid) = (record.pw_uid, record.pw_gid)
        var ancestor = (folder.path as NSString).deletingLastPathComponent
        while ancestor != "/", ancestor.count > 1 {
            var info = stat()
            if stat(ancestor, &info) == 0, info.st_uid == geteuid(), info.st_mode & S_IXOTH == 0 {
                chmod(ancestor, (info.st_mode & 0o7777) | S_IXOTH)
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for path in [folder.path] + names.map({ folder.path + "/" + $0 }) { chown(path, uid, gid) }
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
        try Self.run(owner, "\(binaries)/\(program)", arguments)
    }

    /// Runs `executable` as `owner` (through `runuser`), or as this process's user when `nil`.
    private static func run(_ owner: String?, _ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        if let owner {
            return try ChildProcess.run("/usr/sbin/runuser", ["-u", owner, "--", executable] + arguments, timeoutSeconds: 120)
        }
        return try ChildProcess.run(executable, arguments, timeoutSeconds: 120)
    }
}
