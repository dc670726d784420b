import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport
import Testing

/// Who gets in: the bearer token, the dashboard's login and session cookie, and nobody else — on
/// the admin port only. Asked in-process (`AdminServer.answer`, `LinkhostServer.answer`).
@Suite("Admin listener: authentication", .ownThread)
struct AdminAuthTests {
    static let adminPaths = [
        "/", "/metrics", "/healthz", "/api/v1/hits", "/api/v1/stats?by=rule", "/api/v1/funnel", "/api/v1/openapi.json", "/no-such-page",
        "/api/v1/nope",
    ]

    static func unauthorizedCount(_ harness: AdminHarness) throws -> Int {
        let metrics = try harness.admin("/metrics").text
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("linkhost_admin_unauthorized_total ") }
        return Int(line?.split(separator: " ").last ?? "") ?? -1
    }

    @Test func everyAdminPathIs401WithoutAuthWithAWrongTokenOrAForgedCookieAndIsCounted() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let before = try Self.unauthorizedCount(harness)
        let forged = "linkhost_session=v1.9999999999.00000000000000000000000000000000." + String(repeating: "0", count: 64)
        let attempts: [[(String, String)]] = [
            [], [("Authorization", "Bearer wrong-token-0123456789")], [("Authorization", "Bearer \(AdminHarness.token)x")],
            [("Authorization", "Basic \(AdminHarness.token)")], [("Cookie", forged)],
        ]
        var refused = 0
        for path in Self.adminPaths {
            for headers in attempts {
                let response = try harness.adminRequest(path, headers: headers)
                #expect(response.status == 401, "\(path) with \(headers)")
                refused += 1
                if path.hasPrefix("/api/") || path == "/metrics" || path == "/healthz" {
                    #expect(response.header("Content-Type") == "application/json")
                    #expect(response.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
                    let body = try JSONParser().parse(response.body)
                    #expect(body["error"] == "unauthorized")
                } else {
                    #expect(response.header("Content-Type")?.hasPrefix("text/html") == true)
                    #expect(response.text.contains("name=\"token\""), "\(path): the login form")
                    #expect(response.text.contains("type=\"password\""))
                }
                #expect(!response.text.contains(AdminHarness.token))
            }
        }
        // Every refusal was counted (the metrics request itself carries the token).
        #expect(try Self.unauthorizedCount(harness) == before + refused)
    }

    @Test func thePublicPortNeverServesAdminPathsAndTheAdminPortNeverServesSites() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        for path in Self.adminPaths {
            let response = try harness.publicRequest(
                path, host: "rowhni.com", headers: [("Authorization", "Bearer \(AdminHarness.token)")])
            #expect(response.status != 200 || !response.text.contains("linkhost_"), "\(path) on the public port")
            #expect(response.header("Content-Type") != "text/plain; version=0.0.4; charset=utf-8")
            #expect(!response.text.contains("openapi"))
        }
        let metrics = try harness.publicRequest("/metrics", host: "rowhni.com")
        #expect(metrics.status == 404)
        // The admin port answers no site, with or without auth.
        let aasa = "/.well-known/apple-app-site-association"
        #expect(try harness.adminRequest(aasa, host: "rowhni.com").status == 401)
        #expect(try harness.admin(aasa).status == 404)
    }

    @Test func loginSetsAStrictHttpOnlyCookieThatOpensTheDashboardUntilLogout() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        let wrong = try harness.adminRequest("/login", method: "POST", headers: form, body: Array("token=not-the-token-at-all".utf8))
        #expect(wrong.status == 401)
        #expect(wrong.header("Set-Cookie") == nil)

        let token = AdminHarness.token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let login = try harness.adminRequest("/login", method: "POST", headers: form, body: Array("token=\(token)".utf8))
        #expect(login.status == 303)
        #expect(login.header("Location") == "/")
        let setCookie = try #require(login.header("Set-Cookie"))
        let attributes = setCookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(attributes.contains("HttpOnly"))
        #expect(attributes.contains("SameSite=Strict"))
        #expect(attributes.contains("Path=/"))
        #expect(attributes.contains { $0.hasPrefix("Max-Age=") && Int($0.dropFirst(8)) == 12 * 3600 })
        #expect(!attributes.contains("Secure"), "plain HTTP listener: no Secure flag")
        #expect(!setCookie.contains(AdminHarness.token))
        let cookie = String(attributes[0])

        let dashboard = try harness.adminRequest("/", headers: [("Cookie", cookie)])
        #expect(dashboard.status == 200)
        #expect(dashboard.text.contains("<svg class=\"chart\""))
        // Filters the dashboard cannot apply are refused by their own name and reason.
        let limited = try harness.adminRequest("/?limit=5", headers: [("Cookie", cookie)])
        #expect(limited.status == 400)
        #expect(limited.text.contains("limit") && limited.text.contains("fixed sizes"))
        // The kind is a field of the dashboard's form; a kind that does not exist is refused by name.
        let kinded = try harness.adminRequest("/?kind=view", headers: [("Cookie", cookie)])
        #expect(kinded.status == 400)
        #expect(kinded.text.contains("kind") && kinded.text.contains("is not a kind") && !kinded.text.contains("fixed sizes"))
        #expect(try harness.adminRequest("/?kind=aasa", headers: [("Cookie", cookie)]).status == 200)
        #expect(try harness.adminRequest("/api/v1/stats", headers: [("Cookie", cookie)]).status == 200)

        // A cookie changed by one character is refused.
        var tampered = Array(cookie)
        tampered[tampered.count - 1] = tampered.last == "0" ? "1" : "0"
        #expect(try harness.adminRequest("/", headers: [("Cookie", String(tampered))]).status == 401)

        let logout = try harness.adminRequest("/logout", method: "POST", headers: [("Cookie", cookie)])
        #expect(logout.status == 303)
        #expect(logout.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(try harness.adminRequest("/", headers: [("Cookie", cookie)]).status == 401, "the session ended at logout")
    }

    @Test func failedLoginsAreLimitedPerAddress() throws {
        let harness = try AdminHarness(listening: false)
        defer { harness.stop() }
        let form = [("Content-Type", "application/x-www-form-urlencoded")]
        var statuses: [Int] = []
        for _ in 0..<7 {
            statuses.append(
                try harness.adminRequest("/login", method: "POST", headers: form, body: Array("token=guess-guess-guess-1".utf8)).status)
        }
        #expect(statuses.prefix(5).allSatisfy { $0 == 401 }, "\(statuses)")
        #expect(statuses.suffix(2).allSatisfy { $0 == 429 }, "\(statuses)")
        // Once limited, even the right token waits: a guesser cannot tell a hit from a miss.
        let right = try harness.adminRequest("/login", method: "POST", headers: form, body: Array("token=\(AdminHarness.token)".utf8))
        #expect(right.status == 429)
        #expect(Int(right.header("Retry-After") ?? "") ?? 0 >= 1)
        // The bearer token is not a login and is not limited.
        #expect(try harness.admin("/api/v1/stats").status == 200)
    }

    @Test func aWorldReadableOrShortTokenFileIsAConfigErrorThatNamesThePathAndNeverTheToken() throws {
        let folder = try TemporaryDirectory("linkhost-admin-token")
        let secret = "file-token-8c1d0e6f2b9a"
        let file = try folder.write("admin-token", secret + "\n")
        chmod(file, 0o644)
        let config = try folder.write(
            "config.json",
            try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig))))
                .setting("server.admin.tokenFile", to: .string(file)).setting("server.publicDirectory", to: .string(ProjectPaths.root + "/Public"))
                .jsonText())
        let open = try AdminHarness.linkhost(["check", "--config", config])
        #expect(open.status != 0)
        #expect(open.output.contains("server.admin.tokenFile") || open.error.contains("server.admin.tokenFile"), "\(open.output)\(open.error)")
        #expect((open.output + open.error).contains("chmod 600"))
        #expect(!(open.output + open.error).contains(secret))

        chmod(file, 0o600)
        #expect(try AdminHarness.linkhost(["check", "--config", config]).status == 0)

        try "short\n".write(toFile: file, atomically: false, encoding: .utf8)
        let short = try AdminHarness.linkhost(["check", "--config", config])
        #expect(short.status != 0)
        #expect((short.output + short.error).contains("at least 16"))

        // A token in the environment that is too short stops serve with the variable's name only.
        let serve = try AdminHarness.linkhost(
            ["serve", "--config", ProjectPaths.shippedConfig, "--port", "0", "--host", "127.0.0.1", "--log-db", folder.path + "/log.sqlite"],
            environment: ["LINKHOST_ADMIN_TOKEN": "tiny-secret", "PATH": "/usr/bin:/bin"])
        #expect(serve.status != 0)
        #expect(serve.error.contains("LINKHOST_ADMIN_TOKEN"))
        #expect(!(serve.output + serve.error).contains("tiny-secret"))
    }
}
