import Foundation
import LinkLog
import TestSupport

/// What the audits (HTML validation, accessibility) put in front of the pages and the dashboard:
/// `DashboardSampleLog`'s busy week, plus real requests whose logged values are as hostile as a
/// visitor can make them — control characters, escape sequences, quotes and markup, a right-to-left
/// override, a noncharacter, bytes that are not UTF-8, a pile of combining marks and values
/// thousands of characters long — sent as UTM values, paths, referrers and user agents.
enum HostileVisits {
    /// Query values, already percent-encoded as a visitor would send them.
    static let queryValues = [
        "nul%00inside", "%1B%5B31mred%1B%5B0m%1B%5D0%3Btitle%07", "bell%07del%7Fnel%C2%85", "%22%27%3E%3Cscript%3Ewindow.__pwned%3D1%3C%2Fscript%3E",
        "rtl%E2%80%AEfdp.exe", "nonchar%EF%BF%BEend", "bad%FF%FEbytes", "Z" + String(repeating: "%CC%81%CC%B8", count: 60),
        String(repeating: "long-value-", count: 400),
    ]
    /// Header values (printable: a request head refuses control characters).
    static let headerValues = [
        "\"><script>window.__pwned=1</script>", "' autofocus onfocus='window.__pwned=1", String(repeating: "Mozilla/5.0 (very long) ", count: 150),
    ]

    /// A server and admin listener (on sockets when `listening`) whose log holds the sample week and
    /// the hostile visits.
    static func harness(listening: Bool = true) throws -> AdminHarness {
        let harness = try AdminHarness(listening: listening)
        do {
            try DashboardSampleLog(now: LogRecord.currentTimeMilliseconds()).write(to: harness.databasePath)
            var sent = 0
            for (index, value) in queryValues.enumerated() {
                let header = headerValues[index % headerValues.count]
                // A long value once per request: the whole head must stay under the server's 16 KB.
                let others = value.count > 1000 ? "" : "&utm_source=\(value)&utm_medium=\(value)"
                _ = try harness.visit("/addfriend?code=SAFE1234&utm_campaign=\(value)\(others)", headers: [("Referer", "https://x.example/\(header)")])
                _ = try harness.publicRequest("/\(value)", host: "rowhni.com", headers: [("User-Agent", header)])
                sent += 2
            }
            try harness.waitForRows(sent)
        } catch {
            harness.stop()
            throw error
        }
        return harness
    }

    /// The audited pages of the public listener: a fallback page as an iPhone, an Android phone and
    /// a computer see it, the 404 page and a broken link's 400 page, each with hostile values.
    static let publicPages: [(name: String, device: String, target: String)] = [
        ("fallback-iphone", "iphone", "/addfriend?code=TEST123&utm_source=\(queryValues[3])&utm_campaign=\(queryValues[7])"),
        ("fallback-android", "android", "/joingroup?code=ABC123&utm_source=\(queryValues[0])"),
        ("fallback-desktop", "desktop", "/addfriend?code=TEST123&utm_campaign=\(queryValues[4])"),
        ("not-found", "iphone", "/\(queryValues[3])\(queryValues[1])"),
        ("broken-link", "iphone", "/addfriend?code=\(queryValues[3])\(queryValues[0])"),
    ]

    /// The user agents of `publicPages`' devices.
    static let agents = [
        "iphone":
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        "android": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        "desktop": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    ]
}
