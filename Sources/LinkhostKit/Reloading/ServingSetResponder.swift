import HTTPServing

/// The responder every listener runs: takes the current serving set once per request and answers
/// from it, directly or — on the plain-HTTP listener when HTTPS redirects — through
/// `RedirectingResponder`.
struct ServingSetResponder: HTTPResponder {
    let slot: ServingSetSlot
    /// The HTTPS port to redirect pages to; `nil` answers everything here.
    let redirect: RedirectPort?

    func respond(to request: HTTPRequest) -> AnnotatedResponse<ServedHit> {
        let set = slot.set
        let answered =
            if let redirect {
                RedirectingResponder(inner: set.responder, httpsPort: redirect.port).respond(to: request)
            } else {
                set.responder.respond(to: request)
            }
        return AnnotatedResponse(answered.response, annotation: ServedHit(hit: answered.annotation, logRules: set.logRules))
    }
}
