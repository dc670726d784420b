import HTTPServing
import OrderedJSON

/// The body of `POST /v1/events`, sent by linkhost.js with `navigator.sendBeacon`:
/// `{"event": "open-app" | "store" | "copy", "path": "/addfriend?code=…"}`.
struct PageEventReport: Sendable, Equatable {
    /// The buttons of a fallback page that report clicks.
    enum Event: String, Sendable, CaseIterable {
        case openApp = "open-app"
        case store
        case copy
    }

    let event: Event
    /// The page's path and query (`location.pathname + location.search`).
    let path: String

    static let allowedKeys = ["event", "path"]

    static func parse(_ body: [UInt8]) -> Result<PageEventReport, HTTPProblem> {
        let value: (String) -> JSONValue?
        switch IngestBody.fields(body, allowedKeys: allowedKeys) {
        case .success(let fields): value = fields
        case .failure(let problem): return .failure(problem)
        }
        guard let name = value("event")?.stringValue else { return .failure(.invalidField("\"event\" must be a string")) }
        guard let event = Event(rawValue: name) else {
            return .failure(
                .unknownEvent(
                    "\"\(name.prefix(60))\" is not an event; the events are \(Event.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))"))
        }
        guard let path = value("path")?.stringValue, !path.isEmpty else {
            return .failure(.invalidField("\"path\" must be the page's path and query, e.g. \"/addfriend?code=ABC123\""))
        }
        return .success(PageEventReport(event: event, path: path))
    }
}
