import Foundation
import HTTPServing
import LinkhostKit
import OrderedJSON

/// Report bodies: `POST /v1/opens` (JSON from the app) and `POST /v1/events` (a page's beacon),
/// answered in this process by a fixture server with the right key and media type, so the body
/// alone decides. The first byte picks the endpoint and the fixture. Every answer is a 2xx or 4xx,
/// JSON where it says so, the same when asked twice; an accepted open names a rule whose app URL
/// has the site's scheme, and its web URL's host, as Foundation reads it, is one of the site's.
enum ReportFuzzing {
    static let target = FuzzTarget(
        name: "reports",
        summary: "POST /v1/opens and /v1/events bodies (OpenReport, PageEventReport, ReportedLink) through a fixture server",
        maximumLength: 2048,
        // A whole ingest exchange through a fixture server per input: 19 ms of CPU time for an
        // 889-byte body on a quiet machine, and 42 ms — over the default 25 µs a byte — while two
        // builds and a benchmark shared the two cores. Linear work still stays far inside 60.
        microsecondsPerByte: 60,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let selector = Int(bytes.first ?? 0)
        let body = Array(bytes.dropFirst())
        let serverIndex = (selector >> 1) % FuzzFixtures.servers.count
        let server = FuzzFixtures.servers[serverIndex]
        let site = FuzzFixtures.configurations[serverIndex].sites[(selector >> 3) % FuzzFixtures.configurations[serverIndex].sites.count]
        let opens = selector & 1 == 0
        let request = HTTPRequest(
            method: "POST", target: opens ? "/v1/opens" : "/v1/events",
            headers: [
                "Host": site.primaryHost, "Content-Type": opens ? "application/json" : "text/plain;charset=UTF-8",
                "Authorization": "Bearer \(FuzzFixtures.ingestKey)",
            ],
            clientAddress: "192.0.2.7", body: body)
        let response = server.answer(request)
        FuzzReport.check([200, 204, 400, 404, 413, 422].contains(response.status), "status \(response.status) for the body \(FuzzReport.shown(body))")
        FuzzReport.check(server.answer(request).status == response.status, "a second answer differs for \(FuzzReport.shown(body))")
        if response.headers["Content-Type"]?.hasPrefix("application/json") == true {
            FuzzReport.check(
                (try? JSONParser(duplicateKeys: .reject).parse(response.body)) != nil,
                "a JSON answer that is not JSON: \(FuzzReport.shown(response.body)) for \(FuzzReport.shown(body))")
        }
        guard response.status == 200 || response.status == 204 else { return }
        let report = try? JSONParser(duplicateKeys: .keepAll).parse(body)
        FuzzReport.check(report?.objectMembers != nil, "accepted a body that is no JSON object: \(FuzzReport.shown(body))")
        if opens {
            FuzzReport.check(report?["url"]?.stringValue?.isEmpty == false, "accepted an open without a URL: \(FuzzReport.shown(body))")
            let answer = try? JSONParser().parse(response.body)
            let appURL = answer?["appURL"]?.stringValue ?? ""
            FuzzReport.check(
                appURL.lowercased().hasPrefix(site.app.scheme.lowercased() + "://") && answer?["site"]?.stringValue == site.id,
                "an accepted open answered \(FuzzReport.shown(response.body)) for site \(site.id)")
            // A second reader of the URL, Foundation's (the app's own), finds a host of the site too.
            if let url = report?["url"]?.stringValue, let components = URLComponents(string: url),
                let scheme = components.scheme?.lowercased(), scheme == "https" || scheme == "http"
            {
                let host = components.host.flatMap { HostLookup.normalize($0) } ?? ""
                FuzzReport.check(
                    site.lists(host: host), "accepted \(FuzzReport.shown(url)) for site \(site.id), whose host Foundation reads as \(FuzzReport.shown(host))")
            }
        } else {
            FuzzReport.check(report?["path"]?.stringValue?.hasPrefix("/") == true, "accepted an event without a path: \(FuzzReport.shown(body))")
        }
    }
}
