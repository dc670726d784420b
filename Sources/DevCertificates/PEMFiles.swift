import Foundation

/// Writes certificate and key files; key files are readable by their owner only.
enum PEMFiles {
    static func write(_ text: String, to path: String, privateFile: Bool) throws(DevCertificateError) {
        let created = FileManager.default.createFile(
            atPath: path, contents: Data(text.utf8),
            attributes: [.posixPermissions: privateFile ? 0o600 : 0o644]
        )
        guard created else { throw DevCertificateError("cannot write \(path)") }
        if privateFile {
            // createFile keeps an existing file's mode; make sure a key is never left readable.
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        }
    }
}
