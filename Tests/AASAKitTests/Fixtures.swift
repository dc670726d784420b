import AASAKit
import OrderedJSON

/// Builds matchers from JSON text and answers the questions most tests ask.
enum Fixtures {
    static let app = "ABCDE12345.com.example.app"

    static func document(_ json: String) throws -> AASADocument {
        try AASADocument(text: json)
    }

    static func matcher(_ json: String) throws -> AASAMatcher {
        AASAMatcher(try document(json))
    }

    /// A file with one entry for ``app`` whose `components` array is `componentsJSON`.
    static func components(
        _ componentsJSON: String, variables: String? = nil, entryDefaults: String? = nil,
        domainDefaults: String? = nil
    ) throws -> AASAMatcher {
        var appLinks: [String] = []
        if let variables { appLinks.append("\"substitutionVariables\": \(variables)") }
        if let domainDefaults { appLinks.append("\"defaults\": \(domainDefaults)") }
        let entryDefaultsText = entryDefaults.map { "\"defaults\": \($0), " } ?? ""
        appLinks.append("\"details\": [{\"appIDs\": [\"\(app)\"], \(entryDefaultsText)\"components\": \(componentsJSON)}]")
        return try matcher("{\"applinks\": {\(appLinks.joined(separator: ", "))}}")
    }

    /// A file with one component.
    static func component(_ componentJSON: String, variables: String? = nil) throws -> AASAMatcher {
        try components("[\(componentJSON)]", variables: variables)
    }

    /// Seed 000: the Awful AASA, components and comments as written in the seed.
    static let awful = """
        {
            "applinks": {
                "details": [
                    {
                        "appIDs": ["TEAMID.com.awfulapp.Awful"],
                        "components": [
                            { "comment": "Forum display pages", "/": "/forumdisplay.php", "?": { "forumid": "?*" } },
                            { "comment": "Thread pages", "/": "/showthread.php", "?": { "threadid": "?*" } },
                            { "comment": "Post links", "/": "/showthread.php", "?": { "goto": "post", "postid": "?*" } },
                            { "comment": "User profiles", "/": "/member.php", "?": { "action": "getinfo", "userid": "?*" } },
                            { "comment": "Ban list and rap sheets", "/": "/banlist.php" }
                        ]
                    }
                ]
            }
        }
        """

    /// Rowhni's invite links.
    static let rowhni = """
        {
            "applinks": {
                "details": [
                    {
                        "appIDs": ["ABCDE12345.com.rowhni.app"],
                        "components": [ { "/": "/addfriend*" }, { "/": "/joingroup*" } ]
                    }
                ]
            }
        }
        """

    /// Seed 004: the legacy shape, `details` keyed by app ID, with the empty `apps` array.
    static let legacyRecipes = """
        {
          "applinks": {
            "apps": [],
            "details": {
              "6QA73RGQR2.com.donny.recipes": {
                "paths": [
                  "/recipes/*/",
                  "/search/"
                ]
              }
            }
          }
        }
        """

    /// Apple's "Supporting associated domains" example file.
    static let appleOverview = """
        {
          "applinks": {
            "details": [
              {
                "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],
                "components": [
                  { "#": "no_universal_links", "exclude": true, "comment": "Matches any URL with a fragment that equals no_universal_links and instructs the system not to open it as a universal link." },
                  { "/": "/buy/*", "comment": "Matches any URL with a path that starts with /buy/." },
                  { "/": "/help/website/*", "exclude": true, "comment": "Matches any URL with a path that starts with /help/website/ and instructs the system not to open it as a universal link." },
                  { "/": "/help/*", "?": { "articleNumber": "????" }, "comment": "Matches any URL with a path that starts with /help/ and that has a query item with name 'articleNumber' and a value of exactly four characters." }
                ]
              }
            ]
          },
          "webcredentials": { "apps": ["ABCDE12345.com.example.app"] },
          "appclips": { "apps": ["ABCED12345.com.example.MyApp.Clip"] }
        }
        """
}

extension AASAMatcher {
    /// The decision for `url`, failing the test (by throwing) when the URL does not parse.
    func decision(_ url: String, domain: String? = nil, appID: String? = nil) throws -> AASADecision {
        try match(url, options: AASAMatchOptions(domain: domain, appID: appID)).decision
    }
}
