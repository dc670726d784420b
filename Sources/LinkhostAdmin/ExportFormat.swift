import HTTPServing

/// The formats the API answers in: JSON (the CLI's `--format json`), CSV (RFC 4180, the CLI's
/// `--format csv`) and NDJSON (one JSON object per line, for streaming into other tools).
enum ExportFormat: String, CaseIterable, Sendable {
    case json, csv, ndjson

    var contentType: String {
        switch self {
        case .json: "application/json"
        case .csv: "text/csv; charset=utf-8; header=present"
        case .ndjson: "application/x-ndjson"
        }
    }

    /// `format` (the request's `?format=`, left out when empty) wins; else the first `Accept` media
    /// type that names a format; else JSON.
    static func negotiate(_ request: HTTPRequest, format: String?) -> Result<ExportFormat, HTTPProblem> {
        if let given = format {
            guard let format = ExportFormat(rawValue: given) else {
                return .failure(.badParameter("format", "\"\(given)\" is not a format; allowed: \(allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            return .success(format)
        }
        guard let accept = request.headers["Accept"] else { return .success(.json) }
        for part in accept.split(separator: ",") {
            let type = part.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            switch type {
            case "text/csv": return .success(.csv)
            case "application/x-ndjson", "application/ndjson": return .success(.ndjson)
            case "application/json", "application/*", "*/*": return .success(.json)
            default: continue
            }
        }
        return .failure(.notAcceptable("Accept names no format this API writes; use application/json, text/csv or application/x-ndjson, or ?format="))
    }
}
