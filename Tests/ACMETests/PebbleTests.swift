import ACME
import ACMECurl
import CurlHTTP
import Foundation
import HTTPServing
import Synchronization
import TestSupport
import Testing
import X509

/// The whole order against the real Pebble CA (Debian's `pebble`), with real HTTP-01 validation
/// over a real socket: Pebble's mock DNS (pebble-challtestsrv) answers 127.0.0.1 for every name,
/// and Pebble fetches each token from an HTTPServer of ours on its `httpPort`. Pebble keeps its
/// default of refusing 5 % of nonces; `PEBBLE_VA_NOSLEEP` only skips its random 0–15 s pause
/// before validating, and `PEBBLE_VA_ALWAYS_VALID` is never set.
@Suite("ACME: issuance from Pebble", .ownThread)
struct PebbleTests {
    static let names = ["rowhni.com", "forums.somethingawful.com", "archives.somethingawful.com"]

    /// Whether both binaries are there; else the reason is printed (a failure in CI, where
    /// scripts/test installs them).
    static var binariesFound: Bool {
        guard !PebbleCA.isInstalled else { return true }
        if ProcessInfo.processInfo.environment["CI"] == "true" {
            Issue.record("pebble is missing; scripts/test installs Debian's pebble package")
        } else {
            print("skipped: pebble is not installed (Debian package pebble; scripts/test installs it)")
        }
        return false
    }

    /// Counts the badNonce refusals the client got (and retried) on its way.
    final class CountingTransport: ACMETransport {
        let inner: CurlACMETransport
        let badNonces = Counter()
        let requests = Counter()

        init(_ inner: CurlACMETransport) { self.inner = inner }

        func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
            let response = try await inner.send(request)
            requests.add()
            if response.status == 400, String(decoding: response.body, as: UTF8.self).contains("urn:ietf:params:acme:error:badNonce") {
                badNonces.add()
            }
            return response
        }
    }

    final class Counter: Sendable {
        private let value = Atomic<Int>(0)
        func add() { value.add(1, ordering: .relaxed) }
        var count: Int { value.load(ordering: .relaxed) }
    }

    /// The HTTP-01 answers over HTTP; counts the validation requests Pebble made.
    final class ChallengeServer: Sendable {
        let tokens = ACMEHTTP01Tokens()
        let validations = Counter()
        let server: HTTPServer

        init() throws {
            let tokens = tokens
            let validations = validations
            server = HTTPServer(
                configuration: HTTPServerConfiguration(address: "127.0.0.1", port: 0, threadCount: 1),
                responder: ClosureResponder { request in
                    guard let answer = tokens.keyAuthorization(forPath: request.path) else { return HTTPResponse(status: 404) }
                    validations.add()
                    return HTTPResponse(status: 200, contentType: "application/octet-stream", text: answer)
                })
            try server.start()
        }

        deinit { server.stop() }
    }

    @Test(arguments: ACMECertificateKeyType.allCases)
    func issuesACertificateForThreeNamesWithRealHTTP01Validation(keyType: ACMECertificateKeyType) async throws {
        guard Self.binariesFound else { return }
        let folder = try TemporaryDirectory("pebble")
        let challenges = try ChallengeServer()
        let pebble: PebbleCA
        do {
            pebble = try PebbleCA(in: folder, httpPort: challenges.server.port)
        } catch {
            Issue.record("\(error)")
            return
        }
        defer { pebble.stop() }
        let logs = { pebble.logs }
        let curl = CurlHTTPClient(
            configuration: CurlHTTPConfiguration(caCertificateFile: pebble.files.caFile, connectTimeout: .seconds(2), timeout: .seconds(30)))
        let directoryURL = pebble.directoryURL

        let transport = CountingTransport(CurlACMETransport(client: curl))
        let storage = try ACMEStorage(folder: folder.path + "/acme")
        var settings = ACMEOrderSettings(names: Self.names, email: "ops@rowhni.com", termsOfServiceAgreed: true, keyType: keyType)
        settings.pollInterval = 0.25
        settings.timeout = 120
        let flow = try ACMEOrderFlow(
            certificateID: "rowhni", settings: settings, client: try storage.client(directoryURL: directoryURL, transport: transport),
            responder: challenges.tokens, storage: storage)
        let started = ContinuousClock.now
        let certificate: ACMEIssuedCertificate
        do {
            certificate = try await flow.run()
        } catch {
            Issue.record("the order failed: \(error)\n\(logs())")
            return
        }
        print(
            "Pebble issued a \(keyType.rawValue) certificate for \(Self.names.count) names in \(ContinuousClock.now - started): \(transport.requests.count) requests, "
                + "\(transport.badNonces.count) badNonce retried, \(challenges.validations.count) HTTP-01 fetches")

        // Real validations reached our listener, one per name at least (Pebble may fetch again).
        #expect(challenges.validations.count >= Self.names.count)
        #expect(challenges.tokens.count == 0)
        #expect(Set(certificate.names) == Set(Self.names))
        #expect(try ACMECertificateKey(pemRepresentation: certificate.privateKeyPEM).type == keyType)
        #expect(try storage.issuedCertificate("rowhni")?.leaf == certificate.leaf)

        // The chain leads to Pebble's root, read from its management API.
        let rootPEM = try await curl.send(CurlHTTPRequest(url: pebble.rootURL)).bodyText
        let intermediatePEM = try await curl.send(CurlHTTPRequest(url: pebble.intermediateURL)).bodyText
        let root = try Certificate(pemEncoded: rootPEM)
        let intermediate = try Certificate(pemEncoded: intermediatePEM)
        #expect(certificate.leaf.issuer == intermediate.subject)
        var verifier = Verifier(rootCertificates: CertificateStore([root])) { RFC5280Policy() }
        let result = await verifier.validate(leaf: certificate.leaf, intermediates: CertificateStore(Array(certificate.certificates.dropFirst())))
        guard case .validCertificate(let chain) = result else {
            Issue.record("the chain does not verify against Pebble's root: \(result)")
            return
        }
        #expect(chain.last == root)
    }
}
