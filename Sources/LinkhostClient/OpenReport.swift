import Foundation

/// The JSON body of `POST /v1/opens`: the URL the app was opened with, when, how, and the view
/// token it was handed apart from the URL (`view`, left out when there is none).
struct OpenReport: Encodable, Sendable {
    let url: String
    let openedAt: Date
    let source: OpenSource
    var view: String? = nil

    /// The body's bytes, with `openedAt` in ISO 8601 (`2026-11-23T10:00:00Z`) as the server expects.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// How the app was opened with the URL it reports, so the link host can tell the paths apart in
/// its statistics (a link tapped with the app installed, a fallback page's "Open in" button, a
/// link the app found on the pasteboard after being installed).
public enum OpenSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// iOS handed the app a Universal Link (`https://` URL of the link host).
    case universalLink = "universal-link"
    /// The app was opened with its custom URL scheme (for example the fallback page's button).
    case customScheme = "custom-scheme"
    /// The app read a link from the pasteboard, typically on first launch after installing it from
    /// a fallback page's store button.
    case pasteboard
    /// The app read Google Play's install referrer after being installed (Android's Install
    /// Referrer API; in this library only for a server or a test that reports on an app's behalf).
    case installReferrer = "install-referrer"
}
