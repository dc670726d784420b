/// The JSON body of an error answer: `{"error": "<short code>", "detail": "<human text>"}`. Both
/// are optional here, so a partial body still yields what it has.
struct ServerErrorBody: Decodable, Sendable {
    let error: String?
    let detail: String?
}
