import ACME
import Crypto
import Foundation
import Testing

/// The requests' JWS as RFC 7515 and RFC 8555 §6.2 want them, checked here with swift-crypto
/// independently of the client's own code.
@Suite("ACME: JWS and key authorization")
struct ACMEJWSTests {
    struct Parsed {
        var header: [String: Any]
        var payload: [UInt8]
        var signature: [UInt8]
        var signingInput: Data
    }

    static func parse(_ body: [UInt8]) throws -> Parsed {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: String])
        #expect(Set(object.keys) == ["protected", "payload", "signature"], "flattened JSON serialization, nothing else")
        let protected = try #require(object["protected"])
        let payload = try #require(object["payload"])
        let signature = try #require(object["signature"])
        for part in [protected, payload, signature] {
            #expect(!part.contains("=") && !part.contains("+") && !part.contains("/"), "base64url without padding: \(part)")
        }
        let headerBytes = try #require(FakeACMEServer.base64URL(protected))
        let header = try #require(try JSONSerialization.jsonObject(with: Data(headerBytes)) as? [String: Any])
        return Parsed(
            header: header, payload: try #require(FakeACMEServer.base64URL(payload)), signature: try #require(FakeACMEServer.base64URL(signature)),
            signingInput: Data((protected + "." + payload).utf8))
    }

    @Test func newAccountCarriesTheJWKAndLaterRequestsTheKid() async throws {
        let server = try FakeACMEServer(tokens: ACMEHTTP01Tokens())
        let key = ACMEAccountKey()
        let client = ACMEClient(directoryURL: FakeACMEServer.directoryURL, transport: server, accountKey: key, clock: TestClock())
        let account = try await client.registerAccount(contact: ["mailto:ops@rowhni.com"], termsOfServiceAgreed: true)
        let order = try await client.newOrder(for: ["rowhni.com"])
        _ = try await client.authorization(at: order.value.authorizations[0])

        let posts = server.requests.filter { $0.method == .post }
        #expect(posts.count == 3)
        let publicKey = key.privateKey.publicKey
        var nonces: Set<String> = []
        for (index, request) in posts.enumerated() {
            let jws = try Self.parse(request.body)
            #expect(jws.header["alg"] as? String == "ES256")
            #expect(jws.header["url"] as? String == request.url)
            let nonce = try #require(jws.header["nonce"] as? String)
            #expect(nonces.insert(nonce).inserted, "a nonce is used once")
            // ES256: r || s, 64 raw bytes (not DER), over "protected.payload".
            #expect(jws.signature.count == 64)
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature)
            #expect(publicKey.isValidSignature(signature, for: jws.signingInput))
            if index == 0 {
                #expect(jws.header["kid"] == nil)
                let jwk = try #require(jws.header["jwk"] as? [String: String])
                #expect(Set(jwk.keys) == ["kty", "crv", "x", "y"])
                #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256")
                let x = try #require(FakeACMEServer.base64URL(jwk["x"] ?? ""))
                let y = try #require(FakeACMEServer.base64URL(jwk["y"] ?? ""))
                #expect(Data(x + y) == publicKey.rawRepresentation)
                let payload = try #require(try JSONSerialization.jsonObject(with: Data(jws.payload)) as? [String: Any])
                #expect(payload["termsOfServiceAgreed"] as? Bool == true)
                #expect(payload["contact"] as? [String] == ["mailto:ops@rowhni.com"])
            } else {
                #expect(jws.header["jwk"] == nil)
                #expect(jws.header["kid"] as? String == account.url)
            }
        }
        // POST-as-GET: the payload is the empty string, not "{}".
        let fetch = try Self.parse(posts[2].body)
        #expect(fetch.payload.isEmpty)
        let orderJWS = try Self.parse(posts[1].body)
        let orderPayload = try #require(try JSONSerialization.jsonObject(with: Data(orderJWS.payload)) as? [String: [[String: String]]])
        #expect(orderPayload["identifiers"] == [["type": "dns", "value": "rowhni.com"]])
    }

    @Test func theThumbprintIsRFC7638AndTheKeyAuthorizationUsesIt() throws {
        let key = ACMEAccountKey()
        let thumbprint = FakeACMEServer.thumbprint(key.privateKey.publicKey)
        #expect(key.thumbprint == thumbprint)
        #expect(key.thumbprint.count == 43, "SHA-256 in base64url without padding")
        #expect(key.keyAuthorization(for: "evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA") == "evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA." + thumbprint)
        #expect(key.jwk.canonicalJSON.hasPrefix(#"{"crv":"P-256","kty":"EC","x":""#))
    }

    @Test func theAccountKeySurvivesPEM() throws {
        let key = ACMEAccountKey()
        let again = try ACMEAccountKey(pemRepresentation: key.pemRepresentation)
        #expect(again.thumbprint == key.thumbprint)
        #expect(throws: ACMEError.self) { try ACMEAccountKey(pemRepresentation: "not a key") }
    }
}
