import LinkhostKit
import OrderedJSON
import Synchronization
import TestSupport
import Testing

/// `POST /api/v1/certificates/renew`: the bearer token only (a session cookie is not enough), 409
/// without ACME, 202 once the certificate manager is asked, 405 for other methods.
@Suite("Admin API: certificate renewal")
struct CertificateRenewalAPITests {
    static let path = "/api/v1/certificates/renew"

    @Test func renewingCertificatesTakesTheBearerToken() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let bearer = [("Authorization", "Bearer \(AdminHarness.token)")]
        #expect(try harness.adminRequest(Self.path, method: "POST").status == 401)
        #expect(try harness.adminRequest(Self.path, method: "POST", headers: [("Authorization", "Bearer wrong-token-0000000")]).status == 401)
        #expect(try harness.adminRequest(Self.path, method: "GET", headers: bearer).status == 405)
        let unconfigured = try harness.adminRequest(Self.path, method: "POST", headers: bearer)
        #expect(unconfigured.status == 409)
        #expect(unconfigured.text.contains("server.tls.acme is not configured"))

        let asked = Atomic<Int>(0)
        harness.server.certificateHealth.connect(report: { (.array([]), false) }, renew: { asked.add(1, ordering: .relaxed) })
        let accepted = try harness.adminRequest(Self.path, method: "POST", headers: bearer)
        #expect(accepted.status == 202)
        #expect(asked.load(ordering: .relaxed) == 1)

        // A session cookie signs the dashboard in, but cannot renew (a cross-site form would carry it).
        let login = try harness.adminRequest(
            "/login", method: "POST", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("token=\(AdminHarness.token)".utf8))
        let cookie = try #require(login.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        #expect(try harness.adminRequest("/healthz", headers: [("Cookie", cookie)]).status == 200)
        #expect(try harness.adminRequest(Self.path, method: "POST", headers: [("Cookie", cookie)]).status == 401)
        #expect(asked.load(ordering: .relaxed) == 1)
        #expect(try harness.admin("/healthz").text.contains("\"certificates\""), "the section is in the report")
    }
}
