import HTTPServing

/// Headers every page carries.
///
/// The policy allows nothing inline and nothing from other origins: the page's only script and
/// style come from /static, its only requests are click reports to its own origin, so a value that slipped past escaping still could not run. Pages of
/// invite links carry bearer codes in their URL, so no Referer leaves them.
enum SecurityHeaders {
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static func apply(to headers: inout HTTPHeaders) {
        headers.set("Content-Security-Policy", contentSecurityPolicy)
        headers.set("X-Content-Type-Options", "nosniff")
        headers.set("Referrer-Policy", "no-referrer")
        headers.set("X-Frame-Options", "DENY")
    }
}
