import ACME
import Foundation
import TestSupport
import Testing

/// The storage folder: private files, atomic writes, names that cannot escape it.
@Suite("ACME: storage")
struct ACMEStorageTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func keysCertificatesAndStateAreWrittenForTheOwnerOnly() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 1))
        let flow = try harness.flow()
        _ = try await flow.step()
        let folder = harness.storage.folder
        #expect(try Self.mode(folder) == 0o700)
        #expect(try Self.mode(folder + "/certificates/rowhni") == 0o700)
        for file in ["account-key.pem", "account.json", "certificates/rowhni/order.json"] {
            #expect(try Self.mode(folder + "/" + file) == 0o600, "\(file)")
        }
        _ = try await flow.run()
        #expect(try Self.mode(folder + "/certificates/rowhni/certificate.pem") == 0o600)
        let left = try FileManager.default.subpathsOfDirectory(atPath: folder).sorted()
        #expect(left == ["account-key.pem", "account.json", "certificates", "certificates/rowhni", "certificates/rowhni/certificate.pem"])
    }

    @Test func theAccountKeyIsMadeOnceAndKept() throws {
        let folder = try TemporaryDirectory("acme")
        let first = try ACMEStorage(folder: folder.path + "/a/b").accountKey()
        let second = try ACMEStorage(folder: folder.path + "/a/b").accountKey()
        #expect(first.thumbprint == second.thumbprint)
    }

    @Test func aCertificateNameCannotLeaveTheFolder() throws {
        let folder = try TemporaryDirectory("acme")
        let storage = try ACMEStorage(folder: folder.path)
        for bad in ["", "../escape", ".hidden", "a/b", "é"] {
            #expect(throws: ACMEError.self, "\(bad)") { try storage.save(ACMEOrderState(names: ["rowhni.com"]), for: bad) }
        }
        try storage.save(ACMEOrderState(names: ["rowhni.com"]), for: "site-1.rowhni_com")
        #expect(try storage.orderState("site-1.rowhni_com")?.names == ["rowhni.com"])
    }

    @Test func aFolderThatCannotBeMadeIsAStorageError() throws {
        #expect {
            try ACMEStorage(folder: "/dev/null/acme")
        } throws: { error in
            if case .storage(let path, _) = error as? ACMEError { return path == "/dev/null/acme" }
            return false
        }
    }

    @Test func aDamagedStateFileIsAStorageErrorNotACrash() throws {
        let folder = try TemporaryDirectory("acme")
        let storage = try ACMEStorage(folder: folder.path)
        try folder.write("certificates/rowhni/order.json", "{not json")
        #expect(throws: ACMEError.self) { try storage.orderState("rowhni") }
    }
}
