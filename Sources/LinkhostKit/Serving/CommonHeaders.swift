import HTTPServing

/// Headers every response of this server carries, whatever produced it: today
/// `Strict-Transport-Security` when HTTPS is on. Browsers ignore HSTS on plain HTTP, so one set of
/// prepared responses serves both listeners.
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
