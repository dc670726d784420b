import HTTPServing
import LinkLog
import LinkhostKit

/// The query parameters of the log API, named like the `log` and `stats` flags (`since`, `until`,
/// `host`, `site`, `rule`, `kind`, `utm-source`, `utm-medium`, `utm-campaign`, `client`, `limit`)
/// with the same values. An unknown or repeated parameter is refused rather than ignored: a typo
/// must not quietly widen an export to the whole log.
///
/// An empty value (`?until=`) is the same as leaving the parameter out, for every parameter: an
/// HTML form sends its empty fields, and nobody filling one in means "until an empty time". The
/// OpenAPI document says so with `allowEmptyValue`; what a non-empty value may be, it says with a
/// schema the server checks exactly (Public/admin/openapi.json, held to this by OpenAPIPropertyTests).
package struct LogQueryParameters {
    package static let filterNames = ["since", "until", "host", "site", "rule", "kind", "utm-source", "utm-medium", "utm-campaign", "client", "limit"]

    package let values: [String: String]

    /// Reads a request's query items, allowing the filters and `extra` (plus `format`) but not the
    /// filters in `refused`, which are answered with their reason when given a value. An unknown
    /// name is refused even without a value; empty values are then left out.
    package static func read(_ items: [HTTPQueryItem], extra: [String], refused: [String: String] = [:]) -> Result<LogQueryParameters, HTTPProblem> {
        let allowed = filterNames.filter { refused[$0] == nil } + extra + ["format"]
        var values: [String: String] = [:]
        for item in items {
            let value = item.value ?? ""
            if let reason = refused[item.name] {
                if value.isEmpty { continue }
                return .failure(.badParameter(item.name, reason))
            }
            guard allowed.contains(item.name) else {
                return .failure(.badParameter(item.name, "not a parameter here; allowed: \(allowed.joined(separator: ", "))"))
            }
            if value.isEmpty { continue }
            guard values[item.name] == nil else { return .failure(.badParameter(item.name, "given more than once; give it once")) }
            values[item.name] = value
        }
        return .success(LogQueryParameters(values: values))
    }

    /// The filter, with time bounds resolved against `now`; `maximumLimit` bounds `limit`.
    package func filter(now: Int64, maximumLimit: Int) -> Result<LogFilter, HTTPProblem> {
        var filter = LogFilter()
        for name in ["since", "until"] {
            guard let text = values[name] else { continue }
            do {
                let bound = try TimeBound.parse(text, now: now)
                if name == "since" { filter.since = bound } else { filter.until = bound }
            } catch {
                return .failure(.badParameter(name, "\(error)"))
            }
        }
        // Hosts are logged lower-case without a port or a trailing dot, so the filter is compared in
        // that form. Like the other text filters it takes any value: one that is no host name
        // (":80") selects nothing rather than being refused.
        if let host = values["host"] { filter.host = HostLookup.normalize(host) ?? host }
        if let kind = values["kind"], !HitKind.allCases.contains(where: { $0.rawValue == kind }) {
            return .failure(.badParameter("kind", "\"\(kind)\" is not a kind; allowed: \(HitKind.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        if let client = values["client"], ClientClass(rawValue: client) == nil {
            return .failure(
                .badParameter("client", "\"\(client)\" is not a client class; allowed: \(ClientClass.allCases.map(\.rawValue).joined(separator: ", "))"))
        }
        filter.kind = values["kind"]
        filter.clientClass = values["client"]
        filter.site = values["site"]
        filter.rule = values["rule"]
        filter.utmSource = values["utm-source"]
        filter.utmMedium = values["utm-medium"]
        filter.utmCampaign = values["utm-campaign"]
        if let text = values["limit"] {
            guard let limit = Int(text), (1...maximumLimit).contains(limit) else {
                return .failure(.badParameter("limit", "\"\(text)\" is not a whole number from 1 to \(maximumLimit)"))
            }
            filter.limit = limit
        }
        return .success(filter)
    }
}
