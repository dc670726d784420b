/// The JWS protected header of an ACME request (RFC 8555 §6.2): ES256, the nonce, the exact URL
/// requested, and either the account's JWK (newAccount, before there is an account URL) or its
/// `kid` (the account URL) afterwards.
struct ACMEProtectedHeader: Sendable {
    enum Signer: Sendable {
        case jwk(ACMEJWK)
        case kid(String)
    }

    var signer: Signer
    var nonce: String
    var url: String

    var json: String {
        let signerMember =
            switch signer {
            case .jwk(let jwk): #""jwk":\#(jwk.canonicalJSON)"#
            case .kid(let kid): #""kid":\#(JSONText.quoted(kid))"#
            }
        return #"{"alg":"ES256",\#(signerMember),"nonce":\#(JSONText.quoted(nonce)),"url":\#(JSONText.quoted(url))}"#
    }
}
