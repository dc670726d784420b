import Foundation
import Glibc

/// The file `linkhost serve` keeps its process id in (`server.pidFile` or `--pid-file`), so
/// `linkhost reload` (or a supervisor, or `kill -HUP $(cat F)`) can find it.
///
/// `serve` claims it once it listens and catches SIGHUP, and removes it when it exits — only if it
/// still holds its own id, so a second server that took the file over keeps it. A file left by a
/// server that crashed is taken over; one that names another running linkhost is not, so two
/// servers never share one file.
struct PIDFile {
    let path: String

    /// Writes this process's id (through a temporary file and a rename, so a reader never sees half).
    func claim() throws(PIDFileError) {
        if case .success(let pid) = readProcessID(), pid != getpid(), kill(pid, 0) == 0 || errno == EPERM, ProcessName.isLinkhost(pid) {
            throw .init("another linkhost (pid \(pid)) runs with the pid file \(path); stop it first, or give this server another server.pidFile")
        }
        let temporary = path + ".\(getpid()).tmp"
        do {
            try Data("\(getpid())\n".utf8).write(to: URL(fileURLWithPath: temporary))
        } catch {
            throw .init(
                "cannot write the pid file \(path): \(Self.reason(error)). Fix: create its folder, or point server.pidFile (or --pid-file) to a writable place")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw .init("cannot write the pid file \(path): \(reason)")
        }
    }

    /// Removes the file if it still holds this process's id.
    func release() {
        if case .success(let pid) = readProcessID(), pid == getpid() { unlink(path) }
    }

    /// The id of the running linkhost the file names, or why there is none.
    func runningServer() throws(PIDFileError) -> pid_t {
        let pid: pid_t
        switch readProcessID() {
        case .success(let value): pid = value
        case .failure(let error): throw error
        }
        if kill(pid, 0) != 0 {
            if errno == EPERM {
                throw .init("not allowed to signal process \(pid) named by \(path) (it runs as another user); run linkhost reload as that user")
            }
            throw .init(
                "\(path) names process \(pid), which is not running: the pid file is stale (the server ended without removing it, or runs with another pid file)"
            )
        }
        if let name = ProcessName.of(pid), !ProcessName.isLinkhost(pid) {
            throw .init("\(path) names process \(pid), which is \"\(name)\", not linkhost: the pid file is stale and its id now belongs to another program")
        }
        return pid
    }

    private func readProcessID() -> Result<pid_t, PIDFileError> {
        guard FileManager.default.fileExists(atPath: path) else {
            return .failure(.init("no pid file at \(path): is linkhost serve running with server.pidFile (or --pid-file) set to this file?"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(.init("cannot read the pid file \(path) (check its permissions)"))
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let pid = pid_t(text), pid > 0 else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return .failure(.init("the pid file \(path) holds \"\(shown)\", not a process id", isUnusableInput: true))
        }
        return .success(pid)
    }

    private static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(code))) }
        return error.localizedDescription
    }
}

/// Why the pid file cannot be used; `isUnusableInput` for a file whose content is not an id
/// (exit status 2), else a run-time state such as a server that is not running (1).
struct PIDFileError: Error, CustomStringConvertible {
    let description: String
    let isUnusableInput: Bool

    init(_ description: String, isUnusableInput: Bool = false) {
        self.description = description
        self.isUnusableInput = isUnusableInput
    }
}

/// A process's command name (`/proc/<pid>/comm`), to tell linkhost from a program that got its id.
enum ProcessName {
    /// The name, `nil` where `/proc` cannot say (then nothing is assumed either way).
    static func of(_ pid: pid_t) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/comm") else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Whether `pid` runs the same program as this process (a renamed binary counts as linkhost as
    /// long as `reload` runs under the same name); true when `/proc` cannot tell.
    static func isLinkhost(_ pid: pid_t) -> Bool {
        guard let name = of(pid), let own = of(getpid()) else { return true }
        return name == own
    }
}
