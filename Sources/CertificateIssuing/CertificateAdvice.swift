import ACME

/// The fix for an ACME error, in the operator's terms: which setting to check (by its JSON path)
/// or what to make reachable.
public enum CertificateAdvice {
    static let directoryPath = "server.tls.acme.directory"

    public static func fix(for error: ACMEError, directoryURL: String) -> String {
        switch error {
        case .transport(let url, _) where url == directoryURL:
            return "\(directoryPath) (\(directoryURL)) does not answer: check the URL, that this machine reaches it, "
                + "and server.tls.acme.caCertificate when the CA's HTTPS is signed by a private CA"
        case .transport:
            return "the ACME server stopped answering; linkhost tries again with backoff and serves the stored certificate meanwhile"
        case .unexpectedResponse(let url, let status, _) where url == directoryURL && status == 404:
            return "\(directoryPath) answers 404: give the CA's directory URL, e.g. https://acme-v02.api.letsencrypt.org/directory"
        case .unexpectedResponse(let url, _, _) where url == directoryURL:
            return "\(directoryPath) is not an ACME directory (RFC 8555 §7.1.1): give the CA's directory URL, not its home page"
        case .server(let problem, _, _) where problem.acmeName == "userActionRequired" || problem.acmeName == "agreementRequired":
            return "the CA asks to agree to its current terms: read them and keep server.tls.acme.agreeToTerms true, then `linkhost certificates renew`"
        case .server(let problem, _, _) where problem.acmeName == "invalidContact" || problem.acmeName == "unsupportedContact":
            return "the CA refuses the address in server.tls.acme.email: give one it accepts"
        case .authorizationInvalid(let identifier, let problem):
            let kind = problem?.acmeName ?? ""
            if kind == "dns" {
                return "the CA could not resolve \(identifier): point its DNS A/AAAA record at this server"
            }
            return "the CA could not fetch http://\(identifier)/.well-known/acme-challenge/…: check that \(identifier)'s DNS points here "
                + "and that port 80 reaches linkhost's plain listener (server.listen; in Docker publish 80 to 8080)"
        case .rateLimited:
            return "the CA's rate limit: linkhost waits for its Retry-After and tries again; the stored certificate is served meanwhile"
        case .noHTTP01Challenge(let identifier):
            return "the CA offers no HTTP-01 challenge for \(identifier): list host names, not wildcards, or serve certificate files"
        case .storage(let path, _):
            return "make \(path) writable by linkhost's user (server.tls.acme.storage)"
        case .timedOut:
            return "the CA kept the order pending: linkhost tries again with backoff"
        default:
            return "see the error; linkhost tries again with backoff and serves the stored certificate meanwhile"
        }
    }
}
