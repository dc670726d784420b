import Foundation
import Synchronization

/// A program started by a test, with its output collected, for end-to-end tests of the real binary.
///
/// Started with `posix_spawn` and reaped with `waitpid` rather than through Foundation's `Process`:
/// on Linux, `Process.waitUntilExit` was seen to hang for ever when several threads start children
/// at once, and `FileHandle.readabilityHandler` runs on libdispatch sources that can fire on a
/// descriptor after the pipe was torn down (a known crash in swift-corelibs-foundation). Output is
/// drained by one plain thread per pipe that reads until end of file. A child still running when
/// its `ChildProcess` goes away is killed and reaped, so a failing test leaves no server behind.
public final class ChildProcess: Sendable {
    public let processIdentifier: Int32
    private let exit = Mutex<Int32?>(nil)
    private let output: PipeDrain
    private let errorOutput: PipeDrain

    /// Starts `executable` with `arguments`; standard output and error are captured, standard input
    /// is `/dev/null`. A bare name (no `/`) is looked up on `PATH`. `environment` replaces the
    /// inherited one when given.
    /// - Parameter passing: descriptors the child gets as 3, 4, … (a listening socket handed over
    ///   as a service manager does); every other descriptor of this process stays out.
    public init(
        _ executable: String, _ arguments: [String], currentDirectory: String? = nil, environment: [String: String]? = nil, passing: [Int32] = []
    ) throws {
        var program = try Tool.path(executable)
        var argv = [program] + arguments
        if let currentDirectory {
            // posix_spawn has no portable "chdir" action here; coreutils' env changes directory.
            argv = ["env", "-C", currentDirectory, program] + arguments
            program = try Tool.path("env")
        }
        let environmentPairs = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        // Pipes are made and handed over under one lock, so no other child started by this process
        // can inherit a write end in the moment before it is marked close-on-exec.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        let outPipe = try Self.makePipe()
        let errPipe = try Self.makePipe()

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        // Nothing else of this process reaches the child, as when a shell starts it: libcurl (under
        // URLSession, used by tests running meanwhile) opens sockets without close-on-exec, and a
        // child holding them gets higher descriptor numbers than it expects — wrk counted its
        // connections as failed when their numbers passed the size of its event table.
        // Passed descriptors are copied above any target number first, so placing one on 3 + i
        // never overwrites another still to be placed (and a copy, unlike the original, loses its
        // close-on-exec flag when dup2 places it).
        let copies = passing.map { fcntl($0, F_DUPFD_CLOEXEC, 64) }
        defer { for copy in copies where copy >= 0 { close(copy) } }
        for (index, copy) in copies.enumerated() { posix_spawn_file_actions_adddup2(&actions, copy, 3 + Int32(index)) }
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3 + Int32(passing.count)) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test process ignores SIGPIPE and its threads may block signals: a child must start with
        // default dispositions and an empty mask, as from a shell.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environmentPairs.map { strdup($0) } + [nil]
        defer {
            for argument in cArguments { free(argument) }
            for variable in cEnvironment { free(variable) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        // The parent's copies of the write ends must go, or the readers never see end of file.
        close(outPipe.write)
        close(errPipe.write)
        guard result == 0 else {
            close(outPipe.read)
            close(errPipe.read)
            throw Tool.NotFound(name: "\(program) (posix_spawn: \(String(cString: strerror(result))))")
        }
        processIdentifier = pid
        output = PipeDrain(descriptor: outPipe.read)
        errorOutput = PipeDrain(descriptor: errPipe.read)
    }

    deinit {
        if reap(blocking: false) == nil {
            kill(processIdentifier, SIGKILL)
            _ = reap(blocking: true)
        }
        output.finish()
        errorOutput.finish()
    }

    public var standardOutput: String { output.text }
    public var standardError: String { errorOutput.text }
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Waits until standard output contains `text` (or the process ends, or time runs out).
    @discardableResult
    public func waitForOutput(containing text: String, timeoutSeconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if standardOutput.contains(text) { return true }
            if !isRunning {
                output.finish()
                return standardOutput.contains(text)
            }
            usleep(10_000)
        }
        return false
    }

    /// Sends a signal (SIGTERM, SIGINT, SIGKILL ...) to this child, by its process id, unless it
    /// has already been reaped (its id could then belong to another process).
    public func send(signal: Int32) {
        exit.withLock { status in
            if status == nil { kill(processIdentifier, signal) }
        }
    }

    /// Waits for the process to end and returns its exit status once all its output is read; `nil`
    /// if it is still running after the timeout (it is then killed). A child ended by a signal
    /// reports 128 plus the signal number, as a shell does.
    public func waitForExit(timeoutSeconds: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while isRunning, Date() < deadline { usleep(5_000) }
        var timedOut = false
        if isRunning {
            send(signal: SIGKILL)
            timedOut = true
        }
        let status = reap(blocking: true)
        output.finish()
        errorOutput.finish()
        return timedOut ? nil : status
    }

    /// Runs a program to completion and returns (status, stdout, stderr).
    public static func run(
        _ executable: String, _ arguments: [String], currentDirectory: String? = nil, environment: [String: String]? = nil, timeoutSeconds: Double = 60
    ) throws -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, currentDirectory: currentDirectory, environment: environment)
        let status = child.waitForExit(timeoutSeconds: timeoutSeconds) ?? -1
        return (status, child.standardOutput, child.standardError)
    }

    /// The exit status once the child has ended (reaping it the first time), `nil` while it runs.
    /// Reaping happens under the lock, so `send(signal:)` never signals a reused process id.
    private func reap(blocking: Bool) -> Int32? {
        exit.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(processIdentifier, &raw, blocking ? 0 : WNOHANG)
            } while result < 0 && errno == EINTR
            guard result == processIdentifier else { return nil }
            let signal = raw & 0x7F
            status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            return status
        }
    }

    private static let spawnLock = NSLock()

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later; Debian 12 has 2.36), looked
    /// up at run time because Swift's Glibc module does not import it; `nil` on an older C library.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        // pipe2 is not visible from Swift's Glibc module: set close-on-exec right after pipe().
        guard pipe(&ends) == 0 else { throw Tool.NotFound(name: "pipe: \(String(cString: strerror(errno)))") }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (ends[0], ends[1])
    }
}

/// Reads one pipe to end of file on a thread of its own and keeps what it read.
final class PipeDrain: Sendable {
    private let bytes = Mutex<[UInt8]>([])
    private let done = DispatchSemaphore(value: 0)
    private let finished = Atomic<Bool>(false)

    init(descriptor: Int32) {
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count > 0 {
                    self.bytes.withLock { $0 += buffer[0..<count] }
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            // Closed here, by the only thread that uses the descriptor, after its last read.
            close(descriptor)
            self.done.signal()
        }
        thread.stackSize = 1 << 18
        thread.start()
    }

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Waits until the pipe reached end of file (every writer, the child and its children, closed
    /// it), for at most ten seconds: a grandchild that keeps the pipe open must not hang the test.
    func finish() {
        guard !finished.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = done.wait(timeout: .now() + 10)
    }
}

/// Reads Linux's process table, for tests that must signal a process their child started (a
/// wrapper script's program) by its id rather than by a name pattern.
public enum ProcessTable {
    /// The ids of the processes whose parent is `parent`, from `/proc/<pid>/stat`.
    public static func children(of parent: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { return nil }
            // The command name is in parentheses and may itself hold spaces or parentheses: the
            // fields after the last ")" are state, then the parent id.
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parentID = Int32(fields[1]) else { return nil }
            return parentID == parent ? pid : nil
        }
    }
}
