import HTTPServing

/// Headers every response of this server carries, whatever produced it: today
/// `Strict-Transport-Security` on the HTTPS listener's answers (the plain-HTTP listener's are
/// prepared without it: `ServingSet.plainResponder`).
struct CommonHeaders: Sendable {
    let strictTransportSecurity: String?

    static let none = CommonHeaders(strictTransportSecurity: nil)

    init(strictTransportSecurity: String?) {
        self.strictTransportSecurity = strictTransportSecurity
    }

    init(settings: ServerSettings) {
        strictTransportSecurity = settings.tls?.hsts
    }

    func apply(to headers: inout HTTPHeaders) {
        if let strictTransportSecurity { headers.set("Strict-Transport-Security", strictTransportSecurity) }
    }

    func applied(to headers: HTTPHeaders) -> HTTPHeaders {
        var copy = headers
        apply(to: &copy)
        return copy
    }
}
