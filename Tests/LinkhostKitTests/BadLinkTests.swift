import Foundation
import LinkRules
import LinkhostKit
import TestSupport
import Testing

/// One broken link: the page must say what is wrong, in the visitor's language, and still offer
/// the app.
struct BrokenLink: Sendable, CustomTestStringConvertible {
    let host: String
    let target: String
    let rule: String
    let english: String
    let german: String

    var testDescription: String { "\(host)\(target)" }
}

@Suite("Broken links and unknown addresses")
struct BadLinkTests {
    let shared: SharedServer

    init() throws { shared = try SharedServer() }

    static let broken: [BrokenLink] = [
        BrokenLink(
            host: "rowhni.com", target: "/addfriend", rule: "addfriend",
            english: "This invite link is incomplete: it has no code.", german: "Dieser Einladungslink ist unvollständig: „Code“ fehlt."),
        BrokenLink(
            host: "rowhni.com", target: "/addfriend?code=", rule: "addfriend",
            english: "This invite link is incomplete: it has no code.", german: "Dieser Einladungslink ist unvollständig: „Code“ fehlt."),
        BrokenLink(
            host: "rowhni.com", target: "/joingroup?code=A", rule: "joingroup",
            english: "This group link is broken: the code must be 4 to 32 letters (A–Z, a–z), digits, “-” or “_”.",
            german: "Dieser Gruppen-Link ist ungültig: „Code“ muss 4 bis 32 Buchstaben (A–Z, a–z), Ziffern, „-“ oder „_“ sein."),
        BrokenLink(
            host: "rowhni.com", target: "/joingroup?code=AB.C", rule: "joingroup",
            english: "This group link is broken: the code must be 4 to 32 letters (A–Z, a–z), digits, “-” or “_”.",
            german: "Dieser Gruppen-Link ist ungültig: „Code“ muss 4 bis 32 Buchstaben (A–Z, a–z), Ziffern, „-“ oder „_“ sein."),
        BrokenLink(
            host: "rowhni.com", target: "/addfriend?code=ABC123&code=XYZ789", rule: "addfriend",
            english: "This invite link is broken: it has more than one code.", german: "Dieser Einladungslink ist ungültig: „Code“ kommt mehrfach vor."),
        BrokenLink(
            host: ProductTables.awful, target: "/showthread.php?threadid=abc", rule: "thread",
            english: "This thread link is broken: the thread id must be a number (1 to 18 digits).",
            german: "Dieser Thread-Link ist ungültig: „Thread-ID“ muss eine Zahl (1 bis 18 Ziffern) sein."),
        BrokenLink(
            host: ProductTables.awful, target: "/showthread.php?threadid=456&pagenumber=0", rule: "threadPage",
            english: "This thread link is broken: the page number must be a page number (1 to 99999), “last” or “unread”.",
            german: "Dieser Thread-Link ist ungültig: „Seitenzahl“ muss eine Seitenzahl (1 bis 99999), „last“ oder „unread“ sein."),
        BrokenLink(
            host: ProductTables.awful, target: "/showthread.php", rule: "thread",
            english: "This thread link is incomplete: it has no thread id.", german: "Dieser Thread-Link ist unvollständig: „Thread-ID“ fehlt."),
        BrokenLink(
            host: ProductTables.awful, target: "/showthread.php?goto=post", rule: "post",
            english: "This post link is incomplete: it has no post id.", german: "Dieser Beitragslink ist unvollständig: „Beitrags-ID“ fehlt."),
        BrokenLink(
            host: ProductTables.awful, target: "/member.php?action=edit&userid=1", rule: "profile",
            english: "This profile link is broken: action must be “getinfo”.", german: "Dieser Profillink ist ungültig: action muss „getinfo“ sein."),
        BrokenLink(
            host: ProductTables.awful, target: "/forumdisplay.php?forumid=12345678901234567890", rule: "forum",
            english: "This forum link is broken: the forum id must be a number (1 to 18 digits).",
            german: "Dieser Forenlink ist ungültig: „Forum-ID“ muss eine Zahl (1 bis 18 Ziffern) sein."),
    ]

    @Test(arguments: broken, ["en", "de"])
    func aBrokenLinkGets400SayingWhatIsWrongAndStillOffersTheApp(link: BrokenLink, language: String) throws {
        let response = try shared.get(link.target, host: link.host, language: language)
        #expect(response.status == 400)
        let page = HTMLProbe(response.text)
        let message = try #require(
            response.text.range(of: "<p class=\"message\" role=\"alert\">").map { range in
                HTMLProbe.decodeEntities(String(response.text[range.upperBound...].prefix { $0 != "<" }))
            })
        #expect(message == (language == "de" ? link.german : link.english))
        #expect(response.text.contains("data-rule=\"\(link.rule)\""))
        let scheme = link.host == "rowhni.com" ? "rowhni" : "awful"
        #expect(page.attribute("href", ofElementWithID: "open-app") == "\(scheme)://")
        #expect(page.attribute("href", ofElementWithID: "get-app")?.hasPrefix("https://apps.apple.com/") == true)
        #expect(page.meta("robots") == "noindex")
        #expect(response.header("Content-Language") == language)
    }

    @Test func theRowhniBrokenLinkTitleIsTheSeedsWording() throws {
        let page = HTMLProbe(try shared.get("/addfriend", host: "rowhni.com").text)
        #expect(page.text(ofFirst: "h1") == "Ungültiger Einladungslink")
    }

    @Test(arguments: ["rowhni.com", ProductTables.awful])
    func anUnknownPathGets404WithTheAppsNameAndStore(host: String) throws {
        let response = try shared.get("/no/such/page", host: host, language: "en")
        #expect(response.status == 404)
        let page = HTMLProbe(response.text)
        let app = host == "rowhni.com" ? "Rowhni" : "Awful"
        #expect(page.text(ofFirst: "h1") == "Page not found")
        #expect(response.text.contains("This address does not lead to anything in \(app)."))
        #expect(page.attribute("href", ofElementWithID: "get-app")?.hasPrefix("https://apps.apple.com/") == true)
        #expect(page.attribute("href", ofElementWithID: "open-app") == "\(app.lowercased())://")
        // The store's "then open this link again" is wrong here: this link leads nowhere.
        #expect(!response.text.contains("open this link again"))
        #expect(response.text.contains("Check the link you were sent"))
        let german = try shared.get("/no/such/page", host: host, language: "de-AT,de;q=0.9")
        #expect(HTMLProbe(german.text).text(ofFirst: "h1") == "Seite nicht gefunden")
        #expect(german.text.contains("Prüfe den Link, den du bekommen hast"))
        #expect(!german.text.contains("danach erneut"))
    }

    @Test func rowhniSpeaksGermanByDefaultAndTheForumsEnglish() throws {
        #expect(try shared.get("/addfriend?code=TEST123", host: "rowhni.com").header("Content-Language") == "de")
        #expect(try shared.get("/banlist.php", host: ProductTables.awful).header("Content-Language") == "en")
        #expect(
            try shared.get("/addfriend?code=TEST123", host: "rowhni.com", language: "fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7").header("Content-Language") == "en")
        #expect(try shared.get("/addfriend?code=TEST123", host: "rowhni.com", language: "en;q=0, *;q=0.5").header("Content-Language") == "de")
        #expect(try shared.get("/banlist.php", host: ProductTables.awful, language: "de;q=0.4, en;q=0.3").header("Content-Language") == "de")
    }
}

/// Each parameter type's rule is stated once (`ParameterType.requirement`): the English page says
/// exactly it, the German page the same limits, and routing enforces exactly it.
@Suite("One statement of each parameter type's rule")
struct ParameterRuleWordingTests {
    static func locale(_ language: String) throws -> [String: String] {
        let data = try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.root + "/Public/locales/\(language).json"))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: String])
    }

    @Test(arguments: ParameterType.allCases)
    func thePagesSayWhatTheTypeEnforces(type: ParameterType) throws {
        #expect(try Self.locale("en")["type_\(type.rawValue)"] == type.requirement)
        let german = try #require(try Self.locale("de")["type_\(type.rawValue)"])
        // The German text carries the same numbers and the same quoted characters.
        let figures = { (text: String) in text.split { !$0.isNumber }.map(String.init) }
        #expect(figures(german) == figures(type.requirement), "\(german)")
        let quoted = { (text: String) in text.filter { "-_.~".contains($0) } }
        #expect(quoted(german) == quoted(type.requirement), "\(german)")
    }

    @Test func inviteCodesAcceptExactlyWhatTheRuleSays() {
        for code in ["ABCD", "ab-c_D9", "TEST123", String(repeating: "x", count: 32)] { #expect(ParameterType.inviteCode.accepts(code), "\(code)") }
        for code in ["ABC", "AB.C", "AB C", "ÄBCD", String(repeating: "x", count: 33), "AB%2FC"] {
            #expect(!ParameterType.inviteCode.accepts(code), "\(code)")
        }
    }
}
