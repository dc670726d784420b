import Glibc

/// Writes a file named on the command line (created or replaced, mode 0644 before the umask), or
/// says exactly why it cannot, naming the flag.
enum OutputFile {
    static func write(_ bytes: [UInt8], to path: String, flag: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CLIFailure.unusableInput("\(flag) \(path): \(reason(errno))") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure.runtime("\(flag) \(path): \(reason(errno))")
            }
            written += count
        }
    }

    private static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "the folder does not exist"
        case EISDIR: "is a folder, not a file"
        case ENOSPC: "the disk is full"
        default: InputFile.reason(code)
        }
    }
}
