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

/// JSON string literals for the few values written by hand (the JWS header, whose members the
/// client orders itself).
enum JSONText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
