import ACME
import Foundation
import TestSupport

/// One certificate's order against the fake server: a storage folder, a responder, the injected
/// clock, and a flow that can be made again from the same folder (a restart).
struct OrderHarness {
    static let names = ["rowhni.com", "forums.somethingawful.com", "archives.somethingawful.com"]

    let folder: TemporaryDirectory
    let storage: ACMEStorage
    let server: FakeACMEServer
    let clock = TestClock()
    var tokens = ACMEHTTP01Tokens()
    var settings: ACMEOrderSettings

    init(script: FakeACMEServer.Script = FakeACMEServer.Script(), names: [String] = OrderHarness.names, keyType: ACMECertificateKeyType = .ecdsaP256) throws {
        folder = try TemporaryDirectory("acme")
        storage = try ACMEStorage(folder: folder.path + "/acme")
        server = try FakeACMEServer(script: script, tokens: tokens)
        settings = ACMEOrderSettings(names: names, email: "ops@rowhni.com", termsOfServiceAgreed: true, keyType: keyType)
    }

    /// A flow as a freshly started process makes it: client and flow from the storage folder.
    func flow() throws -> ACMEOrderFlow {
        let client = try storage.client(directoryURL: FakeACMEServer.directoryURL, transport: server, clock: clock)
        return try ACMEOrderFlow(certificateID: "rowhni", settings: settings, client: client, responder: tokens, storage: storage, clock: clock)
    }

    /// A restart: the responder forgets its tokens (it lives in memory) and the flow is made again.
    mutating func restart() throws -> ACMEOrderFlow {
        tokens = ACMEHTTP01Tokens()
        server.use(tokens)
        return try flow()
    }
}
