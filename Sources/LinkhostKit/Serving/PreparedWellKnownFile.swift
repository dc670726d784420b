import HTTPServing

/// A JSON file a platform fetches from `/.well-known/` (the AASA file, assetlinks.json), prepared
/// once at start-up: the 200 with its bytes, strong ETag and cache policy, and the 304 for a repeat
/// fetch. Serving it costs an `If-None-Match` comparison and a queue call.
struct PreparedWellKnownFile: Sendable {
    let tag: String
    let full: PreparedResponse
    let notModified: PreparedResponse

    init(bytes: [UInt8], cacheControl: String, commonHeaders: CommonHeaders) throws(HTTPServerError) {
        tag = EntityTag.strong(for: bytes)
        // Exactly `application/json` (no charset parameter): it is what Apple's checklists and
        // Google's App Links documentation ask for, and JSON is UTF-8 by definition.
        full = try PreparedResponse(
            status: 200,
            headers: commonHeaders.applied(to: [
                "Content-Type": "application/json",
                "ETag": tag,
                "Cache-Control": cacheControl,
                "X-Content-Type-Options": "nosniff",
            ]),
            body: bytes
        )
        notModified = try full.notModified(headers: commonHeaders.applied(to: ["ETag": tag, "Cache-Control": cacheControl]))
    }

    /// The 304 when `ifNoneMatch` names the current tag, else the file.
    func response(ifNoneMatch: String?) -> PreparedResponse {
        if let ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: tag) { return notModified }
        return full
    }
}
