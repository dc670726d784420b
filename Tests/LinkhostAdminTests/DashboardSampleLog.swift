import Foundation
import LinkLog
import LinkLogSQLite

/// A busy week of a hit log for the dashboard's tests: a few thousand rows over the last days, shaped
/// like real traffic (each page view followed by its three static files, clicks, app opens, AASA
/// fetches by Apple's crawler, health checks, 404 probes) and full of what makes a table hard: long
/// user agents and referrers, dozens of campaigns, HTML and script in UTM values, paths and agents,
/// a NUL and terminal escapes in UTM values. Every page view hands out a view token; some are opened
/// in the app through the page's own button (bypass opens, from in-app browsers, without a referrer,
/// from the site itself) or after an install, and a few bypassed views are of a link the served AASA
/// file no longer covers (`/oldinvite`, a rule since removed). Written through the real writer.
/// Choices come from the row's number (`pick`), not from a random generator, so every run has the
/// same rows relative to `now`.
struct DashboardSampleLog {
    /// Values that would run or break the page if they were not escaped (each sets
    /// `window.__pwned` if it ever runs).
    static let hostile = [
        "\"><script>window.__pwned=1</script>", "<img src=x onerror=\"window.__pwned=1\">", "</td></tr></table><b>table broken</b>",
        "' autofocus onfocus='window.__pwned=1",
    ]
    /// UTM values with control characters: a NUL, an escape sequence, a bell and a line break.
    static let controlled = ["nul\u{0}inside", "\u{1B}[31mred\u{1B}[0m", "bell\u{7}tab\tline\nbreak"]
    static let longAgent =
        "Mozilla/5.0 (Linux; Android 14; SM-S921B Build/UP1A.231005.007; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36 Instagram 330.0.0.40.92 Android (34/14; 480dpi; 1080x2340; samsung; SM-S921B; e1s; s5e9945; de_DE; 601420827; IABMV/1)"
    static let agents: [(agent: String, client: String)] = [
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
            "ios"
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/479.0.0.49.108;FBBV/640421457;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/17.6;FBSS/3;FBID/phone;FBLC/de_DE;FBOP/5;FBRV/0]",
            "in-app-browser"
        ),
        (longAgent, "in-app-browser"),
        ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36", "android"),
        ("Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15", "desktop"),
        ("WhatsApp/2.24.10.79 i", "link-preview"),
        (hostile[1], "unknown"),
    ]
    static let sources = ["whatsapp", "instagram", "mail", "qrcode", "telegram", "newsletter", hostile[0], controlled[1]]

    /// Campaign names: many ordinary ones, one very long, the hostile and the controlled ones.
    static var campaigns: [String] {
        let seasons = ["spring", "summer", "autumn", "winter"]
        let themes = ["launch", "referral", "friends", "groups", "retargeting", "press", "festival", "school", "creator", "partner"]
        var names: [String] = []
        for (index, theme) in themes.enumerated() {
            for season in seasons where (index + season.count) % 3 != 0 { names.append("\(season)-\(theme)-2026") }
        }
        names.append("an-extremely-long-campaign-name-that-nobody-would-type-but-a-tool-generated-" + String(repeating: "x", count: 120))
        return names + hostile + controlled
    }

    let records: [LogRecord]

    /// Rows over the `days` days before `now` (all inside the dashboard's default week).
    init(now: Int64, days: Int = 6, visits: Int = 560) {
        let campaigns = Self.campaigns
        let span = Int64(days) * 86_400_000
        var records: [LogRecord] = []
        func at(_ offset: Int64) -> Int64 { now - max(60_000, offset) }
        for visit in 0..<visits {
            // More traffic towards today, as after a launch.
            let fraction = 1 - (Double(Self.pick(visit, 7919, visits)) / Double(visits)).squareRoot()
            let time = at(Int64(Double(span) * fraction))
            let (agent, client) = Self.agents[Self.pick(visit, 31, Self.agents.count)]
            let rule = ["addfriend", "addfriend", "joingroup", "profile"][visit % 4]
            let campaign: String? = Self.pick(visit, 3, 7) == 0 ? nil : campaigns[Self.pick(visit, 104_729, campaigns.count)]
            let source: String? = campaign == nil ? nil : Self.sources[Self.pick(visit, 13, Self.sources.count)]
            let referrer: String? =
                switch Self.pick(visit, 5, 4) {
                case 0: nil
                case 1:
                    "https://l.instagram.com/?u=https%3A%2F%2Frowhni.com%2F\(rule)%3Fcode%3DC\(visit)%26utm_source%3Dinstagram&e=AT0"
                        + String(repeating: "Qk9", count: 60)
                case 2: "https://www.google.com/"
                default: "https://x.example/\(Self.hostile[visit % Self.hostile.count])"
                }
            let token = "token-\(visit % 300)"
            let viewToken = "view" + String(repeating: "0", count: 12 - String(visit).count) + String(visit)
            func hit(_ kind: String, path: String, status: Int = 200, delay: Int64 = 0, event: String? = nil, secret: String? = nil) -> LogRecord {
                var record = LogRecord(
                    timestampMilliseconds: min(now - 1000, time + delay), siteID: "rowhni", host: "rowhni.com", method: kind == "event" ? "POST" : "GET",
                    path: path, kind: kind, rule: kind == "static" ? nil : rule, status: status, durationMicroseconds: 180)
                record.utmCampaign = kind == "static" ? nil : campaign
                record.utmSource = kind == "static" ? nil : source
                record.utmMedium = campaign == nil ? nil : "social"
                record.referrer = kind == "static" ? "https://rowhni.com/\(rule)" : referrer
                record.userAgent = agent
                record.clientClass = client
                record.event = event
                record.secretToken = secret
                if kind == "fallback" || (kind == "app_open" && event != "universal-link") { record.viewToken = viewToken }
                // The query as the log keeps it: the invite code as its keyed hash.
                if kind == "fallback" || kind == "app_open", rule != "profile" {
                    let hex = String(UInt64(visit) &* 0x9E37_79B9_7F4A_7C15, radix: 16)
                    record.query = "code=hmac:" + String(repeating: "0", count: 16 - hex.count) + hex
                }
                if kind != "app_open" {
                    record.inApp = client == "in-app-browser" ? ClientClassifier.inAppBrowser(agent) : nil
                    record.referrerHost = ReferrerHost.of(record.referrer)
                }
                return record
            }
            records.append(hit("fallback", path: "/\(rule)", secret: token))
            for file in ["/static/page.css", "/static/icon.png", "/static/og/rowhni.png"] { records.append(hit("static", path: file, delay: 150)) }
            let roll = Self.pick(visit, 61, 100)
            if roll < 35 { records.append(hit("event", path: "/v1/events", delay: 4000, event: "open-app")) }
            if roll >= 35 && roll < 45 { records.append(hit("event", path: "/v1/events", delay: 6000, event: "store")) }
            if roll < 4 { records.append(hit("event", path: "/v1/events", delay: 3000, event: "copy")) }
            if roll < 25 { records.append(hit("app_open", path: "/v1/opens", delay: 9000, event: "universal-link", secret: token)) }
            // The page's own button: the person had the app (a bypass open); or the copied link
            // the app found after an install.
            if roll >= 90, rule != "profile" { records.append(hit("app_open", path: "/v1/opens", delay: 5000, event: "custom-scheme", secret: token)) }
            if roll >= 85, roll < 90, rule != "profile" {
                records.append(hit("app_open", path: "/v1/opens", delay: 40_000, event: "pasteboard", secret: token))
            }
        }
        // Views of a link the served AASA file no longer covers, each opened through its button.
        for index in 0..<3 {
            let time = at(Int64(index + 1) * 3_600_000)
            var view = LogRecord(
                timestampMilliseconds: time, siteID: "rowhni", host: "rowhni.com", method: "GET", path: "/oldinvite", kind: "fallback", rule: "oldinvite",
                status: 200, durationMicroseconds: 150, query: "code=hmac:00112233445566\(index)\(index)")
            view.viewToken = "oldinvitetoken0\(index)"
            view.clientClass = "ios"
            var open = view
            open.kind = "app_open"
            open.method = "POST"
            open.status = 200
            open.event = "custom-scheme"
            open.timestampMilliseconds = time + 3000
            records += [view, open]
        }
        for index in 0..<(days * 40) {
            var record = LogRecord(
                timestampMilliseconds: at(Int64(index) * span / Int64(days * 40) + 30_000), siteID: "rowhni", host: "rowhni.com", method: "GET",
                path: "/.well-known/apple-app-site-association", kind: "aasa", status: index % 5 == 0 ? 304 : 200, durationMicroseconds: 90)
            record.userAgent = "AASA-Bot/1.0.0"
            record.clientClass = "aasa-bot"
            records.append(record)
        }
        for index in 0..<(days * 16) {
            var record = LogRecord(
                timestampMilliseconds: at(Int64(index) * span / Int64(days * 16) + 45_000), siteID: nil, host: "127.0.0.1", method: "GET",
                path: "/healthz", kind: "health", status: 200, durationMicroseconds: 20)
            record.userAgent = "kube-probe/1.31"
            record.clientClass = "bot"
            records.append(record)
        }
        let probes = ["/wp-login.php", "/.env", "/" + Self.hostile[0], "/" + String(repeating: "a/", count: 90) + "deep", "/addfriend/\u{1B}[2J"]
        for index in 0..<(days * 10) {
            var record = LogRecord(
                timestampMilliseconds: at(Int64(Self.pick(index, 6151, 10_000)) * span / 10_000), siteID: "rowhni",
                host: index % 3 == 0 ? "forums.somethingawful.com" : "rowhni.com",
                method: "GET", path: probes[index % probes.count], kind: index % 4 == 0 ? "bad_link" : "not_found", rule: index % 4 == 0 ? "addfriend" : nil,
                status: index % 4 == 0 ? 400 : 404, durationMicroseconds: 60)
            record.userAgent = index % 2 == 0 ? "curl/8.5.0" : Self.hostile[3]
            record.clientClass = "bot"
            records.append(record)
        }
        self.records = records.sorted { $0.timestampMilliseconds < $1.timestampMilliseconds }
    }

    /// A well-spread choice from `0..<count` for row `index` (`factor` a prime, different per choice).
    static func pick(_ index: Int, _ factor: Int, _ count: Int) -> Int {
        (index &* factor &+ index / count) % count
    }

    /// Writes every row to the SQLite log at `path` (created when missing) and waits until they are in.
    func write(to path: String) throws {
        // A journal of its own: a server may write this log too, through the journal beside it.
        let writer = try LogWriter(configuration: LogWriterConfiguration(databasePath: path, journalPath: path + ".sample"))
        for record in records { _ = writer.enqueue(record) }
        let status = writer.stop()
        guard status.written >= records.count else { throw HarnessError(description: "the writer wrote \(status.written) of \(records.count) rows") }
    }
}
