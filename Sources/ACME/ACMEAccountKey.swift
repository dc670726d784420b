import Crypto
import Foundation

/// The ACME account's key, ECDSA P-256: it signs every request as ES256 (RFC 7518 §3.4) and its
/// public half, as a JWK, names the account.
public struct ACMEAccountKey: Sendable {
    /// The key's scalar: swift-crypto's key type is not `Sendable` on Linux, its bytes are.
    private let rawRepresentation: Data

    /// A new random key.
    public init() {
        self.init(P256.Signing.PrivateKey())
    }

    public init(_ privateKey: P256.Signing.PrivateKey) {
        rawRepresentation = privateKey.rawRepresentation
    }

    public var privateKey: P256.Signing.PrivateKey {
        // Made from bytes that came from a valid key, so this cannot fail.
        try! P256.Signing.PrivateKey(rawRepresentation: rawRepresentation)
    }

    /// A key saved with `pemRepresentation` (PKCS #8 or SEC 1 PEM).
    public init(pemRepresentation: String) throws(ACMEError) {
        do {
            rawRepresentation = try P256.Signing.PrivateKey(pemRepresentation: pemRepresentation).rawRepresentation
        } catch {
            throw ACMEError.storage(path: "account key", detail: "not a P-256 private key in PEM: \(error)")
        }
    }

    public var pemRepresentation: String { privateKey.pemRepresentation }

    /// The public key as a JWK (RFC 7517), members in lexicographic order and no whitespace, which
    /// makes this string the input of the RFC 7638 thumbprint as well.
    public var jwk: ACMEJWK {
        let raw = [UInt8](privateKey.publicKey.rawRepresentation)  // x || y, 32 bytes each
        return ACMEJWK(x: Base64URL.encode(raw[0..<32]), y: Base64URL.encode(raw[32..<64]))
    }

    /// The JWK thumbprint (RFC 7638): SHA-256 of the canonical JWK, base64url.
    public var thumbprint: String {
        Base64URL.encode(SHA256.hash(data: Data(jwk.canonicalJSON.utf8)))
    }

    /// What an HTTP-01 challenge answers for `token` (RFC 8555 §8.1): the token, a dot, the thumbprint.
    public func keyAuthorization(for token: String) -> String {
        token + "." + thumbprint
    }

    /// A JWS in the flattened JSON serialization (RFC 7515 §7.2.2) over `payload`, the ES256
    /// signature as the raw 64 bytes r || s (RFC 7518 §3.4), not DER.
    func sign(header: ACMEProtectedHeader, payload: [UInt8]) throws(ACMEError) -> [UInt8] {
        let protected = Base64URL.encode(header.json.utf8)
        let encodedPayload = Base64URL.encode(payload)
        let signingInput = Data((protected + "." + encodedPayload).utf8)
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try privateKey.signature(for: signingInput)
        } catch {
            throw ACMEError.storage(path: "account key", detail: "signing failed: \(error)")
        }
        let body = #"{"protected":"\#(protected)","payload":"\#(encodedPayload)","signature":"\#(Base64URL.encode(signature.rawRepresentation))"}"#
        return Array(body.utf8)
    }
}

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

/// Base64 with the URL-safe alphabet and no padding (RFC 7515 §2), as every JWS part and JWK
/// coordinate is written.
enum Base64URL {
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`, `nil` when it is not base64url.
    static func decode(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }
}
