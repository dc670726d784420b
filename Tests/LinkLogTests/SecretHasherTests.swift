import Foundation
import LinkLog
import LinkLogSQLite
import TestSupport
import Testing

@Suite("Secret hasher")
struct SecretHasherTests {
    @Test("a token is hmac: and 16 hex digits, stable for one key and different across keys")
    func tokens() {
        let hasher = SecretHasher(key: Array(repeating: 7, count: 32))
        let token = hasher.token(for: "ABC123")
        #expect(token.hasPrefix("hmac:"))
        #expect(token.count == 21)
        #expect(token.dropFirst(5).allSatisfy { "0123456789abcdef".contains($0) })
        #expect(hasher.token(for: "ABC123") == token)
        #expect(hasher.token(for: "ABC124") != token)
        #expect(SecretHasher(key: Array(repeating: 8, count: 32)).token(for: "ABC123") != token)
    }

    /// HMAC-SHA256 as RFC 2104 defines it (the expected values from Python's `hmac` module), the
    /// key set up once and each token started from a copy: the same answers in any order, from
    /// several threads at once, for a key longer than SHA-256's block too.
    @Test("tokens are RFC 2104 HMAC-SHA256, whatever the order and however many threads ask")
    func knownAnswers() async {
        let hasher = SecretHasher(key: Array(1...32))
        let expected = ["ABC123": "hmac:c53821e24fd56318", "": "hmac:462476a897ddfdbd", "zürich": "hmac:241e169448d79fba"]
        for (secret, token) in expected { #expect(hasher.token(for: secret) == token) }
        for (secret, token) in expected.reversed() { #expect(hasher.token(for: secret) == token) }
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    (0..<200).allSatisfy { round in
                        let secret = Array(expected.keys)[(index + round) % expected.count]
                        return hasher.token(for: secret) == expected[secret]
                    }
                }
            }
            for await agreed in group { #expect(agreed) }
        }
        #expect(SecretHasher(key: Array(repeating: 0xAB, count: 100)).token(for: "ABC123") == "hmac:418dfd7339bf9e8e")
    }

    @Test("the key file is made once with mode 0600 and reused: the same code hashes the same after a restart")
    func keyFileIsCreatedAndReused() throws {
        let folder = try TemporaryDirectory("hasher")
        let keyFile = SecretHasher.keyFilePath(forDatabase: folder.path + "/data/hits.sqlite")
        #expect(keyFile == folder.path + "/data/hits.sqlite.key")

        let first = try SecretHasher(keyFile: keyFile)
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? Int) == 32)

        let afterRestart = try SecretHasher(keyFile: keyFile)
        #expect(afterRestart.token(for: "TEST123") == first.token(for: "TEST123"))

        // Another installation has another key.
        let otherInstall = try SecretHasher(keyFile: folder.path + "/other/hits.sqlite.key")
        #expect(otherInstall.token(for: "TEST123") != first.token(for: "TEST123"))
        // No temporary files are left beside the key.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/data")
        #expect(leftovers == ["hits.sqlite.key"])
    }

    @Test("a key file of the wrong size or that cannot be read is a clear error naming the file")
    func badKeyFiles() throws {
        let folder = try TemporaryDirectory("hasher")
        let short = try folder.write("short.key", bytes: [1, 2, 3])
        let wrongSize = #expect(throws: LogError.self) { try SecretHasher(keyFile: short) }
        #expect(wrongSize == .keyFileWrongSize(path: short, size: 3))
        #expect(wrongSize?.description.contains(short) == true)

        // A folder where the key should be cannot be read, as root too.
        let folderInTheWay = folder.path + "/dir.key"
        try FileManager.default.createDirectory(atPath: folderInTheWay, withIntermediateDirectories: true)
        let unreadable = #expect(throws: LogError.self) { try SecretHasher(keyFile: folderInTheWay) }
        #expect(unreadable?.description.contains(folderInTheWay) == true)
        if case .keyFileUnreadable = unreadable {} else { Issue.record("expected keyFileUnreadable, got \(String(describing: unreadable))") }
    }

    @Test("query parameters: utm_* to columns, tracked in clear, secrets hashed, the rest not logged")
    func takeParameters() {
        let hasher = SecretHasher(key: Array(repeating: 1, count: 32))
        var record = Sample.record()
        record.takeParameters(
            from: [
                ("code", "ABC123"), ("utm_source", "newsletter"), ("utm_source", "second"), ("from", "qrcode"),
                ("utm_campaign", "spring"), ("session", "private"), ("from", "other"),
            ],
            tracked: ["from"], secret: ["code"], hasher: hasher
        )
        #expect(record.utmSource == "newsletter")
        #expect(record.utmCampaign == "spring")
        #expect(record.utmMedium == nil)
        #expect(record.trackedParameters.map(\.name) == ["code", "from"])
        #expect(record.trackedParameters.map(\.value) == [hasher.token(for: "ABC123"), "qrcode"])

        var withoutHasher = Sample.record()
        withoutHasher.takeParameters(from: [("code", "ABC123")], tracked: ["code"], secret: ["code"])
        #expect(withoutHasher.trackedParameters.isEmpty)
    }
}
