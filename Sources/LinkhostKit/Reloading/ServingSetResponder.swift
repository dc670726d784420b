import HTTPServing

/// The responder every listener runs: takes the current serving set once per request and answers
/// from it, directly or — on the plain-HTTP listener when HTTPS redirects — through
/// `RedirectingResponder`.
struct ServingSetResponder: HTTPResponder {
    let slot: ServingSetSlot
    /// The HTTPS port to redirect pages to; `nil` answers everything here.
    let redirect: RedirectPort?

    /// The answer, with the facts the observers read (they carry the site, and with it the rules
    /// of the set that answered, so a reload meanwhile does not change how the row is written).
    func respond(to request: HTTPRequest) -> AnnotatedResponse<ServedRequest> {
        let set = slot.set
        if let redirect {
            return RedirectingResponder(inner: set.responder, httpsPort: redirect.port).respond(to: request)
        }
        return set.responder.respond(to: request)
    }
}
