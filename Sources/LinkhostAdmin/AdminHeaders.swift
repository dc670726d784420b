import HTTPServing

/// Headers of admin answers. Nothing the admin listener sends may be cached by anything between it
/// and the browser (it is all logged data), framed, or sniffed; pages load nothing inline and
/// nothing from elsewhere, so a logged value that slipped past escaping still could not run.
enum AdminHeaders {
    static let contentSecurityPolicy = [
        "default-src 'none'", "style-src 'self'", "img-src 'self'", "form-action 'self'", "base-uri 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    static var common: HTTPHeaders {
        [
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Content-Security-Policy": contentSecurityPolicy,
        ]
    }

    static var json: HTTPHeaders { with("application/json") }

    static var html: HTTPHeaders { with("text/html; charset=utf-8") }

    static func with(_ contentType: String) -> HTTPHeaders {
        var headers = common
        headers.set("Content-Type", contentType)
        return headers
    }
}
