import HTTPServing

/// The responder every listener runs: takes the current serving set once per request and answers
/// from it: on the plain-HTTP listener while HTTPS is on, from the set's answers without HSTS, and
/// through `RedirectingResponder` when HTTPS redirects.
struct ServingSetResponder: HTTPResponder {
    let slot: ServingSetSlot
    /// The HTTPS port to redirect pages to; `nil` answers everything here.
    let redirect: RedirectPort?
    /// Whether this is the plain-HTTP listener of a server that also serves HTTPS.
    var besideHTTPS = false
    /// ACME's HTTP-01 answers, on the plain listener when `server.tls.acme` is on.
    var challenges: ACMEChallengeAnswer?

    /// The answer, with the facts the observers read (they carry the site, and with it the rules
    /// of the set that answered, so a reload meanwhile does not change how the row is written).
    func respond(to request: HTTPRequest) -> AnnotatedResponse<ServedRequest> {
        let set = slot.set
        if let challenges, let answer = challenges.respond(to: request, responder: set.plainResponder) { return answer }
        if let redirect {
            let responder = besideHTTPS ? set.plainResponder : set.responder
            return RedirectingResponder(inner: responder, httpsPort: redirect.port).respond(to: request)
        }
        return besideHTTPS ? set.plainResponder.respond(to: request) : set.responder.respond(to: request)
    }

    /// Reports over plain HTTP beside HTTPS are refused whole by `RedirectingResponder` (after
    /// their small body); elsewhere the set's responder decides from the head.
    func refusal(beforeBodyOf request: HTTPRequest) -> HTTPResponse? {
        guard redirect == nil else { return nil }
        let set = slot.set
        return besideHTTPS ? set.plainResponder.refusal(beforeBodyOf: request) : set.responder.refusal(beforeBodyOf: request)
    }
}
