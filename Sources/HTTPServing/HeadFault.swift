/// What makes a request head unacceptable before any responder sees it: the framing faults that
/// let a proxy in front and this server read one request two ways (request smuggling, cache
/// poisoning). RFC 9112 §3.2 asks for 400 when `Host` is missing from an HTTP/1.1 request or
/// repeated; a NUL byte is allowed nowhere in a head (RFC 9110 §5.5 field values, §5.1 names,
/// RFC 9112 §3 the request line).
package enum HeadFault: Equatable, Sendable {
    case malformedRequestLine
    case hiddenBytesInField
    case missingHost
    case repeatedHost

    /// The sentence the 400 answer carries.
    package var detail: String {
        switch self {
        case .malformedRequestLine: "the request line must be the method, the target and the version, one space apart, with no NUL byte"
        case .hiddenBytesInField: "a header field holds a NUL byte or a line folded onto the next one"
        case .missingHost: "an HTTP/1.1 request needs a Host header field"
        case .repeatedHost: "the request has more than one Host header field"
        }
    }

    /// The fault of a head, if any: `version` as sent, how many `Host` fields came, whether a field
    /// hid bytes (behind a NUL, or in a folded line: RFC 9112 §5.2 lets a server refuse obs-fold
    /// with 400), and whether the request line's parts lie where their lengths say (a NUL inside
    /// the method or target cuts the C string libmicrohttpd hands over, which shows as a gap).
    package static func of(version: String, hostFields: Int, hiddenBytesInFields: Bool, requestLineIntact: Bool) -> HeadFault? {
        if !requestLineIntact { return .malformedRequestLine }
        if hiddenBytesInFields { return .hiddenBytesInField }
        if hostFields > 1 { return .repeatedHost }
        if hostFields == 0 && version == "HTTP/1.1" { return .missingHost }
        return nil
    }
}
