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
    case conflictingContentLength
    case contentLengthWithTransferEncoding
    case bareLineBreakInField

    /// The sentence the 400 answer carries.
    package var detail: String {
        switch self {
        case .malformedRequestLine: "the request line must be the method, the target and the version, one space apart, with no NUL byte"
        case .hiddenBytesInField: "a header field holds a NUL byte or a line folded onto the next one"
        case .missingHost: "an HTTP/1.1 request needs a Host header field"
        case .repeatedHost: "the request has more than one Host header field"
        case .conflictingContentLength: "the request has Content-Length fields with different values"
        case .contentLengthWithTransferEncoding: "the request has both Content-Length and Transfer-Encoding; send one"
        case .bareLineBreakInField: "a header field value holds a CR or LF that does not end its line"
        }
    }

    /// The fault of a head, if any: `version` as sent, how many `Host` fields came, whether a field
    /// hid bytes (behind a NUL, or in a folded line: RFC 9112 §5.2 lets a server refuse obs-fold
    /// with 400), and whether the request line's parts lie where their lengths say (a NUL inside
    /// the method or target cuts the C string libmicrohttpd hands over, which shows as a gap).
    /// `framing` is what the fields said about the body's length and about line breaks inside them.
    package static func of(
        version: String, hostFields: Int, hiddenBytesInFields: Bool, requestLineIntact: Bool, framing: Framing = Framing()
    ) -> HeadFault? {
        if !requestLineIntact { return .malformedRequestLine }
        if hiddenBytesInFields { return .hiddenBytesInField }
        if framing.bareLineBreak { return .bareLineBreakInField }
        if framing.conflictingLengths { return .conflictingContentLength }
        if framing.hasLength && framing.hasTransferEncoding { return .contentLengthWithTransferEncoding }
        if hostFields > 1 { return .repeatedHost }
        if hostFields == 0 && version == "HTTP/1.1" { return .missingHost }
        return nil
    }

    /// What a head's fields say about framing, noted while they are collected.
    package struct Framing: Equatable, Sendable {
        package var hasLength = false
        package var conflictingLengths = false
        package var hasTransferEncoding = false
        package var bareLineBreak = false

        package init(hasLength: Bool = false, conflictingLengths: Bool = false, hasTransferEncoding: Bool = false, bareLineBreak: Bool = false) {
            self.hasLength = hasLength
            self.conflictingLengths = conflictingLengths
            self.hasTransferEncoding = hasTransferEncoding
            self.bareLineBreak = bareLineBreak
        }
    }
}
