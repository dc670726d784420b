import ArgumentParser
import Foundation

/// Prints a message for a person on standard error and ends the command with an exit status.
enum CLIFailure {
    /// Input that cannot be used (config, values, files): exit status 2.
    static func unusableInput(_ message: String) -> ExitCode {
        printToStandardError(message)
        return ExitCode(2)
    }

    /// A failure while running (cannot listen, ...): exit status 1.
    static func runtime(_ message: String) -> ExitCode {
        printToStandardError(message)
        return ExitCode(1)
    }

    static func printToStandardError(_ message: String) {
        FileHandle.standardError.write(Data(("linkhost: " + message + "\n").utf8))
    }
}

/// Writes to standard output unbuffered, so a supervisor or test reading a pipe sees lines at once.
enum StandardOutput {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func write(bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }
}
