import Foundation
import Synchronization

/// A program started by a test, with its output collected, for end-to-end tests of the real binary.
public final class ChildProcess: Sendable {
    private let process: Process
    private let output = Mutex<[UInt8]>([])
    private let errorOutput = Mutex<[UInt8]>([])

    /// Starts `executable` with `arguments`; standard output and error are captured.
    public init(_ executable: String, _ arguments: [String], currentDirectory: String? = nil, environment: [String: String]? = nil) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        if let environment { process.environment = environment }
        let outPipe = Pipe()
        let errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        self.process = process
        outPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.output.withLock { $0 += data }
        }
        errPipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.errorOutput.withLock { $0 += data }
        }
        try process.run()
    }

    public var standardOutput: String { output.withLock { String(decoding: $0, as: UTF8.self) } }
    public var standardError: String { errorOutput.withLock { String(decoding: $0, as: UTF8.self) } }
    public var processIdentifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Waits until standard output contains `text` (or the process ends, or time runs out).
    @discardableResult
    public func waitForOutput(containing text: String, timeoutSeconds: Double = 20) -> Bool {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while Date() < deadline {
            if standardOutput.contains(text) { return true }
            if !process.isRunning { return standardOutput.contains(text) }
            usleep(10_000)
        }
        return false
    }

    /// Sends a signal (SIGTERM, SIGINT, SIGKILL ...).
    public func send(signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the process to end and returns its exit status; `nil` if it is still running after
    /// the timeout (it is then killed).
    public func waitForExit(timeoutSeconds: Double = 30) -> Int32? {
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        // Let the readability handlers drain what is left in the pipes.
        usleep(50_000)
        return process.terminationStatus
    }

    /// Runs a program to completion and returns (status, stdout, stderr).
    public static func run(_ executable: String, _ arguments: [String], currentDirectory: String? = nil, timeoutSeconds: Double = 60) throws -> (status: Int32, output: String, error: String) {
        let child = try ChildProcess(executable, arguments, currentDirectory: currentDirectory)
        let status = child.waitForExit(timeoutSeconds: timeoutSeconds) ?? -1
        return (status, child.standardOutput, child.standardError)
    }
}
