/// An EC P-256 public key as a JSON Web Key (RFC 7517), the only key type the account uses.
public struct ACMEJWK: Sendable, Equatable {
    /// The x coordinate, base64url.
    public let x: String
    /// The y coordinate, base64url.
    public let y: String

    /// `{"crv":"P-256","kty":"EC","x":…,"y":…}`: the required members only, in lexicographic order,
    /// no whitespace (RFC 7638 §3.2). Base64url needs no JSON escaping.
    public var canonicalJSON: String {
        #"{"crv":"P-256","kty":"EC","x":"\#(x)","y":"\#(y)"}"#
    }
}
