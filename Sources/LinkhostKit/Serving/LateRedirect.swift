import HTTPServing
import Synchronization

/// A `RedirectingResponder` whose HTTPS port is learnt when the HTTPS listener has bound (it may
/// have been configured as port 0).
final class LateRedirect: HTTPResponder {
    let inner: LinkhostResponder
    let publicPort: Int?
    let httpsPort = Atomic<Int>(0)

    init(inner: LinkhostResponder, publicPort: Int?) {
        self.inner = inner
        self.publicPort = publicPort
    }

    func respond(to request: HTTPRequest) -> AnnotatedResponse<HitAnnotation> {
        RedirectingResponder(inner: inner, httpsPort: publicPort ?? httpsPort.load(ordering: .acquiring)).respond(to: request)
    }
}
