import Glibc

/// How a target reports a broken property: a message on standard error, then `abort()`, which
/// libFuzzer treats like any crash (it saves the input as `crash-…` and stops).
enum FuzzReport {
    static func write(_ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }

    static func fail(_ message: String) -> Never {
        write("linkhost-fuzz: property broken: \(message)\n")
        abort()
    }

    /// Fails with `message` unless `condition` holds.
    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fail(message()) }
    }

    /// Text for messages: escapes everything outside printable ASCII, cut to a readable length.
    static func shown(_ text: String) -> String {
        shown(Array(text.utf8))
    }

    static func shown(_ bytes: [UInt8]) -> String {
        var result = ""
        for byte in bytes.prefix(300) {
            if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return "\"" + result + (bytes.count > 300 ? "…(\(bytes.count) bytes)" : "") + "\""
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
