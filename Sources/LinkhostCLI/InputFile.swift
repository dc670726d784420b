import Glibc

/// Reads a file named on the command line, or says exactly why it cannot: missing, a folder,
/// not readable, or too large to be what the flag expects. An empty file (or `/dev/null`) is read
/// as zero bytes; the caller decides what that means.
enum InputFile {
    /// Files larger than this are refused unread (an AASA file is at most 128 KB; `check` still
    /// wants to report a larger one, so the cap is far above that).
    static let maximumBytes = 16 << 20

    /// The bytes at `path`; `flag` names the option in the message (`--aasa x.json: no such file`).
    static func bytes(at path: String, flag: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIFailure.unusableInput("\(flag) \(path): \(reason(errno))") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw CLIFailure.unusableInput("\(flag) \(path): \(reason(errno))") }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            throw CLIFailure.unusableInput("\(flag) \(path): is a folder, not a file")
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIFailure.unusableInput("\(flag) \(path): \(reason(errno))")
            }
            if count == 0 { return bytes }
            bytes += chunk[..<count]
            if bytes.count > maximumBytes {
                throw CLIFailure.unusableInput(
                    "\(flag) \(path): larger than \(maximumBytes >> 20) MB, far more than a config, an AASA file (128 KB at most) or an assetlinks.json holds")
            }
        }
    }

    /// Says what an `errno` from opening, reading or writing a named file means.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ENOENT: "no such file"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a folder on the path is a file"
        case ELOOP: "too many symbolic links"
        default: String(cString: strerror(code))
        }
    }
}
