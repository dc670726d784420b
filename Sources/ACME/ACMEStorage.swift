import Foundation
import Glibc

/// The ACME client's folder: the account key and URL, and per certificate the order in progress,
/// its key and the issued certificate. Every file is written atomically (a temporary file, synced,
/// renamed over the old one) with mode 0600, and the folders are 0700: they hold private keys.
///
/// ```
/// account-key.pem                    the account's P-256 key
/// account.json                       {"directoryURL", "accountURL"}
/// certificates/<id>/order.json       the order in progress (ACMEOrderState)
/// certificates/<id>/order-key.pem    that order's certificate key, saved before the CSR is sent
/// certificates/<id>/certificate.pem  the issued chain, leaf first, then its private key
/// ```
/// The issued chain and its key share one file so a crash can never leave a certificate beside
/// another certificate's key.
public struct ACMEStorage: Sendable {
    public let folder: String

    /// Opens `folder`, making it (0700) when missing.
    public init(folder: String) throws(ACMEError) {
        self.folder = folder
        try Self.makeFolder(folder)
    }

    // MARK: Account

    /// The account key, made and saved the first time.
    public func accountKey() throws(ACMEError) -> ACMEAccountKey {
        let path = folder + "/account-key.pem"
        if let text = try Self.readIfPresent(path) { return try ACMEAccountKey(pemRepresentation: text) }
        let key = ACMEAccountKey()
        try Self.writeAtomically(path, Array(key.pemRepresentation.utf8))
        return key
    }

    public func accountRecord() throws(ACMEError) -> ACMEAccountRecord? {
        try Self.readJSON(ACMEAccountRecord.self, folder + "/account.json")
    }

    public func save(_ record: ACMEAccountRecord) throws(ACMEError) {
        try Self.writeJSON(record, folder + "/account.json")
    }

    /// A client signing with the stored account key, knowing the stored account URL when it was
    /// registered with the same directory.
    public func client(directoryURL: String, transport: any ACMETransport, clock: any ACMEClock = ACMESystemClock()) throws(ACMEError) -> ACMEClient {
        let record = try accountRecord()
        return ACMEClient(
            directoryURL: directoryURL, transport: transport, accountKey: try accountKey(),
            accountURL: record?.directoryURL == directoryURL ? record?.accountURL : nil, clock: clock)
    }

    // MARK: Certificates

    /// The order in progress for `id`, `nil` when there is none.
    public func orderState(_ id: String) throws(ACMEError) -> ACMEOrderState? {
        try Self.readJSON(ACMEOrderState.self, try certificateFolder(id) + "/order.json")
    }

    public func save(_ state: ACMEOrderState, for id: String) throws(ACMEError) {
        let folder = try certificateFolder(id)
        try Self.makeFolder(folder)
        try Self.writeJSON(state, folder + "/order.json")
    }

    /// The certificate key of the order in progress for `id`: made and saved the first time, read
    /// back after a restart (the CSR may have been sent with it already).
    public func orderKey(_ id: String, type: ACMECertificateKeyType) throws(ACMEError) -> ACMECertificateKey {
        let folder = try certificateFolder(id)
        let path = folder + "/order-key.pem"
        if let text = try Self.readIfPresent(path) { return try ACMECertificateKey(pemRepresentation: text) }
        let key = try ACMECertificateKey.generate(type)
        try Self.makeFolder(folder)
        try Self.writeAtomically(path, Array(key.pemRepresentation.utf8))
        return key
    }

    /// Ends the order in progress for `id`: its state and its key go.
    public func removeOrder(_ id: String) throws(ACMEError) {
        let folder = try certificateFolder(id)
        for name in ["order.json", "order-key.pem"] {
            if unlink(folder + "/" + name) != 0 && errno != ENOENT { throw Self.systemError(folder + "/" + name, "cannot remove") }
        }
    }

    /// The certificate issued last for `id`, `nil` before the first.
    public func issuedCertificate(_ id: String) throws(ACMEError) -> ACMEIssuedCertificate? {
        let path = try certificateFolder(id) + "/certificate.pem"
        guard let text = try Self.readIfPresent(path) else { return nil }
        let marker = "-----BEGIN CERTIFICATE-----"
        let keyStart = text.range(of: "-----BEGIN", options: .backwards)
        guard text.contains(marker), let keyStart, !text[keyStart.lowerBound...].hasPrefix(marker) else {
            throw ACMEError.storage(path: path, detail: "not a certificate chain followed by its key")
        }
        return try ACMEIssuedCertificate(chainPEM: String(text[..<keyStart.lowerBound]), privateKeyPEM: String(text[keyStart.lowerBound...]))
    }

    public func save(_ certificate: ACMEIssuedCertificate, for id: String) throws(ACMEError) {
        let folder = try certificateFolder(id)
        try Self.makeFolder(folder)
        try Self.writeAtomically(folder + "/certificate.pem", Array((certificate.chainPEM + certificate.privateKeyPEM).utf8))
    }

    /// A caller's JSON record beside certificate `id` (`certificates/<id>/<name>.json`), such as
    /// when it renews and why its last attempt failed; `nil` before the first.
    public func record<Value: Decodable>(_ type: Value.Type, named name: String, for id: String) throws(ACMEError) -> Value? {
        try Self.readJSON(type, try certificateFolder(id) + "/\(name).json")
    }

    public func save(record: some Encodable, named name: String, for id: String) throws(ACMEError) {
        let folder = try certificateFolder(id)
        try Self.makeFolder(folder)
        try Self.writeJSON(record, folder + "/\(name).json")
    }

    /// The folder of certificate `id`, which must be a plain name (letters, digits, `.`, `-`, `_`).
    private func certificateFolder(_ id: String) throws(ACMEError) -> String {
        let allowed = id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        guard !id.isEmpty, !id.hasPrefix("."), allowed else {
            throw ACMEError.storage(path: folder, detail: "\"\(id)\" is no certificate name (letters, digits, '.', '-', '_')")
        }
        return folder + "/certificates/" + id
    }

    // MARK: Files

    private static func makeFolder(_ path: String) throws(ACMEError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ACMEError.storage(path: path, detail: "cannot create the folder: \(error.localizedDescription)")
        }
        guard access(path, W_OK) == 0 else { throw systemError(path, "cannot write into the folder") }
    }

    private static func readIfPresent(_ path: String) throws(ACMEError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path) else { throw ACMEError.storage(path: path, detail: "cannot read the file") }
        return String(decoding: data, as: UTF8.self)
    }

    private static func readJSON<Value: Decodable>(_ type: Value.Type, _ path: String) throws(ACMEError) -> Value? {
        guard let text = try readIfPresent(path) else { return nil }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return try decoder.decode(type, from: Data(text.utf8))
        } catch {
            throw ACMEError.storage(path: path, detail: "unreadable: \(error)")
        }
    }

    private static func writeJSON(_ value: some Encodable, _ path: String) throws(ACMEError) {
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            bytes = Array(try encoder.encode(value)) + [0x0A]
        } catch {
            throw ACMEError.storage(path: path, detail: "cannot encode: \(error)")
        }
        try writeAtomically(path, bytes)
    }

    /// Writes `bytes` to a new file beside `path` (mode 0600 from its creation, so no moment with
    /// wider permissions), syncs it, renames it over `path` and syncs the folder: after a crash
    /// the file is either the old one or the new one, whole.
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws(ACMEError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw systemError(temporary, "cannot create") }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = systemError(temporary, "cannot write")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        guard fsync(descriptor) == 0 else {
            let error = systemError(temporary, "cannot sync")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = systemError(path, "cannot rename into place")
            unlink(temporary)
            throw error
        }
        let folder = open((path as NSString).deletingLastPathComponent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            _ = fsync(folder)
            close(folder)
        }
    }

    private static func systemError(_ path: String, _ what: String) -> ACMEError {
        ACMEError.storage(path: path, detail: "\(what): \(String(cString: strerror(errno)))")
    }
}

/// The registered account, saved so a restart signs with `kid` at once instead of asking again.
public struct ACMEAccountRecord: Codable, Sendable, Equatable {
    public var directoryURL: String
    public var accountURL: String

    public init(directoryURL: String, accountURL: String) {
        self.directoryURL = directoryURL
        self.accountURL = accountURL
    }
}
