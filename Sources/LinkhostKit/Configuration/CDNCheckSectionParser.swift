import CDNCheck
import OrderedJSON

/// Reads `server.cdnCheck`: `intervalHours` (0, the default, turns the check off), `cdnBase` and
/// `timeoutSeconds`.
struct CDNCheckSectionParser {
    static let allowedKeys = ["intervalHours", "cdnBase", "timeoutSeconds"]
    /// Decision: at least a quarter of an hour between checks. Apple says its CDN fetches a file
    /// within 24 hours of a change; asking it every few seconds would tell nothing new.
    static let intervalRange = 0.25...168.0
    static let intervalFix = "write a number of hours from 0.25 to 168 (a week), e.g. 6, or 0 to turn the check off"

    let problems: ConfigurationProblems

    /// The settings, or `nil` when the check is off (or the section is unusable, with a problem recorded).
    func read(_ server: ConfigObjectReader) -> CDNCheckSettings? {
        guard let reader = server.object("cdnCheck", what: "the CDN check settings", allowedKeys: Self.allowedKeys) else { return nil }
        let path = reader.path.appending("intervalHours")
        var hours = 0.0
        switch reader.value("intervalHours") {
        case nil:
            problems.add(path, "\"intervalHours\" is missing", fix: Self.intervalFix)
        case .number(let number)?:
            hours = number.doubleValue
            if hours != 0, !Self.intervalRange.contains(hours) {
                problems.add(path, "\(number.literal) hours is outside 0.25...168", fix: Self.intervalFix)
            }
        case let other?:
            problems.add(path, "the interval must be a number, found \(other.kindDescription)", fix: Self.intervalFix)
        }
        var settings = CDNCheckSettings(intervalHours: hours)
        if let base = reader.string("cdnBase", fix: "write the CDN's base URL, e.g. \"\(CDNChecker.appleBase)\"") {
            if CDNChecker.isUsableBase(base) {
                settings.cdnBase = base
            } else {
                problems.add(
                    reader.path.appending("cdnBase"), "\"\(base)\" is not an http:// or https:// URL with a host",
                    fix: "write e.g. \"\(CDNChecker.appleBase)\" (the default), without a query")
            }
        }
        settings.timeoutSeconds = reader.integer("timeoutSeconds", in: 1...300, default: settings.timeoutSeconds, meaning: "seconds one host's answer may take")
        return hours == 0 ? nil : settings
    }
}
