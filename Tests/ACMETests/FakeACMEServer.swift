import ACME
import Crypto
import Foundation
import SwiftASN1
import Synchronization
import Testing
import X509

/// An ACME server in-process, as strict as Pebble where the client could go wrong: every POST must
/// be a JWS with a nonce it issued (used once), the URL requested, `jwk` only for newAccount and the
/// account's `kid` after, and a signature that verifies. Validation asks the responder the flow was
/// given for the key authorization when the challenge is answered (or, scripted, a few polls later). A script makes it refuse nonces, rate-limit, fail validations and add `Retry-After`.
final class FakeACMEServer: ACMETransport {
    static let base = "https://acme.test"
    static let directoryURL = base + "/dir"

    /// What the server does besides the happy path.
    struct Script {
        /// Nonces refused with badNonce before any is accepted.
        var badNonces = 0
        /// newOrder refusals with rateLimited, each with this `Retry-After` (nil: none sent).
        var rateLimitedOrders = 0
        var rateLimitRetryAfter: String? = "120"
        /// Names whose validation fails (the responder's answer is then not even asked).
        var failingNames: Set<String> = []
        /// Polls of an authorization that still find it processing after the challenge was answered.
        var processingPolls = 0
        /// Polls of the order that still find it processing after finalize.
        var finalizePolls = 0
        /// `Retry-After` sent on authorization and order polls.
        var pollRetryAfter: String?
    }

    struct Request {
        var method: ACMEHTTPRequest.Method
        var url: String
        /// The protected header of a POST, as JSON text.
        var protectedJSON: String?
        var body: [UInt8]
        var payload: [UInt8]
        var response: Int
    }

    private struct Challenge {
        var token: String
        var status = "pending"
        var remainingPolls = 0
        var error: ACMEProblem?
    }

    private struct Authorization {
        var name: String
        var status = "pending"
        var challenge: Challenge
    }

    private struct Order {
        var account: String
        var names: [String]
        var status = "pending"
        var authorizations: [Int]
        var remainingFinalizePolls = 0
        var chain: String?
        var error: ACMEProblem?
    }

    private struct State {
        var script: Script
        var nonces: Set<String> = []
        var nonceCounter = 0
        var accounts: [String: P256.Signing.PublicKey] = [:]
        var accountThumbprints: [String: String] = [:]
        var orders: [Int: Order] = [:]
        var authorizations: [Int: Authorization] = [:]
        var requests: [Request] = []
        var refusedNonces = 0
    }

    private let state: Mutex<State>
    /// Where the server looks for HTTP-01 answers (what a real CA fetches over HTTP).
    let tokens: Mutex<ACMEHTTP01Tokens>
    private let authorityKey = Certificate.PrivateKey(P256.Signing.PrivateKey())
    let authority: Certificate

    init(script: Script = Script(), tokens: ACMEHTTP01Tokens) throws {
        state = Mutex(State(script: script))
        self.tokens = Mutex(tokens)
        let name = try DistinguishedName { CommonName("Fake ACME CA") }
        authority = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: authorityKey.publicKey,
            notValidBefore: Date(timeIntervalSince1970: 1_700_000_000), notValidAfter: Date(timeIntervalSince1970: 1_900_000_000), issuer: name,
            subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions { Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0)) },
            issuerPrivateKey: authorityKey)
    }

    /// The responder the server asks from now on (a restarted process has a new, empty one).
    func use(_ responder: ACMEHTTP01Tokens) { tokens.withLock { $0 = responder } }

    func updateScript(_ change: (inout Script) -> Void) { state.withLock { change(&$0.script) } }

    var requests: [Request] { state.withLock { $0.requests } }
    var refusedNonces: Int { state.withLock { $0.refusedNonces } }
    func count(_ path: String) -> Int { requests.filter { $0.url == Self.base + path && $0.method == .post }.count }

    func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse {
        let responder = tokens.withLock { $0 }
        return state.withLock { state in
            var record = Request(method: request.method, url: request.url, protectedJSON: nil, body: request.body, payload: [], response: 0)
            var response = handle(request, &state, &record, responder)
            // A nonce with every answer to newNonce and to a POST (RFC 8555 §6.5), none with the directory.
            if request.method != .get {
                state.nonceCounter += 1
                let nonce = "nonce-\(state.nonceCounter)"
                state.nonces.insert(nonce)
                response.headers.append(("Replay-Nonce", nonce))
            }
            record.response = response.status
            state.requests.append(record)
            return response
        }
    }

    private func handle(_ request: ACMEHTTPRequest, _ state: inout State, _ record: inout Request, _ responder: ACMEHTTP01Tokens) -> ACMEHTTPResponse {
        let path = String(request.url.dropFirst(Self.base.count))
        switch (request.method, path) {
        case (.get, "/dir"):
            return Self.json(
                200,
                #"{"newNonce":"\#(Self.base)/new-nonce","newAccount":"\#(Self.base)/new-account","newOrder":"\#(Self.base)/new-order","meta":{"termsOfService":"\#(Self.base)/terms"}}"#
            )
        case (.head, "/new-nonce"):
            return ACMEHTTPResponse(status: 200, headers: [("Cache-Control", "no-store")])
        case (.post, _):
            break
        default:
            return Self.problem(405, "malformed", "\(request.method.rawValue) \(path) is not served")
        }
        #expect(request.header("Content-Type") == "application/jose+json")
        // The JWS: flattened JSON with the three members.
        guard let jws = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: String], jws.count == 3,
            let protectedText = jws["protected"], let payloadText = jws["payload"], let signatureText = jws["signature"],
            let protectedBytes = Self.base64URL(protectedText), let payload = Self.base64URL(payloadText), let signature = Self.base64URL(signatureText),
            let protected = try? JSONSerialization.jsonObject(with: Data(protectedBytes)) as? [String: Any]
        else { return Self.problem(400, "malformed", "not a flattened JWS") }
        record.protectedJSON = String(decoding: protectedBytes, as: UTF8.self)
        record.payload = payload
        guard protected["alg"] as? String == "ES256" else { return Self.problem(400, "badSignatureAlgorithm", "ES256 only") }
        guard protected["url"] as? String == request.url else { return Self.problem(401, "unauthorized", "the url of the header is not the request's") }
        guard let nonce = protected["nonce"] as? String, state.nonces.remove(nonce) != nil else {
            return Self.problem(400, "badNonce", "unknown or used nonce")
        }
        if state.script.badNonces > 0 {
            state.script.badNonces -= 1
            state.refusedNonces += 1
            return Self.problem(400, "badNonce", "refused on purpose")
        }
        // The signer: jwk for newAccount only, kid for everything else.
        let key: P256.Signing.PublicKey
        var accountURL: String?
        if path == "/new-account" {
            guard protected["kid"] == nil, let jwk = protected["jwk"] as? [String: String], jwk["kty"] == "EC", jwk["crv"] == "P-256",
                let x = jwk["x"].flatMap(Self.base64URL), let y = jwk["y"].flatMap(Self.base64URL),
                let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y)
            else { return Self.problem(400, "malformed", "newAccount needs a P-256 jwk and no kid") }
            key = publicKey
        } else {
            guard protected["jwk"] == nil, let kid = protected["kid"] as? String, let known = state.accounts[kid] else {
                return Self.problem(400, "accountDoesNotExist", "sign with the kid of a registered account")
            }
            key = known
            accountURL = kid
        }
        let signingInput = Data((protectedText + "." + payloadText).utf8)
        guard let ecdsa = try? P256.Signing.ECDSASignature(rawRepresentation: signature), key.isValidSignature(ecdsa, for: signingInput) else {
            return Self.problem(400, "malformed", "the signature does not verify")
        }
        return route(path, payload: payload, key: key, accountURL: accountURL, &state, responder)
    }

    private func route(_ path: String, payload: [UInt8], key: P256.Signing.PublicKey, accountURL: String?, _ state: inout State, _ responder: ACMEHTTP01Tokens)
        -> ACMEHTTPResponse
    {
        let parts = path.split(separator: "/").map(String.init)
        let json = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any]
        switch parts.first {
        case "new-account":
            guard json?["termsOfServiceAgreed"] as? Bool == true else { return Self.problem(403, "userActionRequired", "agree to the terms") }
            let existing = state.accounts.first { $0.value.rawRepresentation == key.rawRepresentation }?.key
            let url = existing ?? "\(Self.base)/account/\(state.accounts.count + 1)"
            state.accounts[url] = key
            state.accountThumbprints[url] = Self.thumbprint(key)
            return Self.json(existing == nil ? 201 : 200, #"{"status":"valid","contact":["mailto:ops@rowhni.com"]}"#, location: url)
        case "new-order":
            if state.script.rateLimitedOrders > 0 {
                state.script.rateLimitedOrders -= 1
                var response = Self.problem(429, "rateLimited", "too many new orders recently")
                if let retryAfter = state.script.rateLimitRetryAfter { response.headers.append(("Retry-After", retryAfter)) }
                return response
            }
            let names = ((json?["identifiers"] as? [[String: String]]) ?? []).compactMap { $0["value"] }
            let orderID = state.orders.count + 1
            var authorizationIDs: [Int] = []
            for name in names {
                let id = state.authorizations.count + 1
                state.authorizations[id] = Authorization(name: name, challenge: Challenge(token: "token-\(id)-\(UUID().uuidString.prefix(8))"))
                authorizationIDs.append(id)
            }
            state.orders[orderID] = Order(account: accountURL ?? "", names: names, authorizations: authorizationIDs)
            return Self.json(201, orderJSON(orderID, state), location: "\(Self.base)/order/\(orderID)")
        case "order":
            guard parts.count == 2, let id = Int(parts[1]), var order = state.orders[id] else { return Self.problem(404, "malformed", "no such order") }
            guard payload.isEmpty else { return Self.problem(400, "malformed", "POST-as-GET has an empty payload") }
            if order.status == "processing" {
                if order.remainingFinalizePolls > 0 { order.remainingFinalizePolls -= 1 } else { order.status = "valid" }
                state.orders[id] = order
            }
            return withPollRetryAfter(Self.json(200, orderJSON(id, state)), state)
        case "authz":
            guard parts.count == 2, let id = Int(parts[1]), state.authorizations[id] != nil else {
                return Self.problem(404, "malformed", "no such authorization")
            }
            guard payload.isEmpty else { return Self.problem(400, "malformed", "POST-as-GET has an empty payload") }
            validateIfDue(id, &state, responder)
            return withPollRetryAfter(Self.json(200, authorizationJSON(id, state)), state)
        case "chall":
            guard parts.count == 2, let id = Int(parts[1]), var authorization = state.authorizations[id] else {
                return Self.problem(404, "malformed", "no such challenge")
            }
            guard json?.isEmpty == true else { return Self.problem(400, "malformed", "a challenge is answered with {}") }
            if authorization.challenge.status == "pending" {
                authorization.challenge.status = "processing"
                authorization.challenge.remainingPolls = state.script.processingPolls
                state.authorizations[id] = authorization
                // Without processing polls, validation happens now, as this request is answered:
                // the answer must have been published before the client asked for validation.
                if state.script.processingPolls == 0 { validateIfDue(id, &state, responder) }
            }
            return Self.json(200, challengeJSON(id, state), extraHeaders: [("Link", "<\(Self.base)/authz/\(id)>;rel=\"up\"")])
        case "finalize":
            guard parts.count == 2, let id = Int(parts[1]), var order = state.orders[id] else { return Self.problem(404, "malformed", "no such order") }
            guard order.status == "ready" else { return Self.problem(403, "orderNotReady", "the order is \(order.status)") }
            guard let csrText = json?["csr"] as? String, let der = Self.base64URL(csrText), let chain = issue(csr: der, names: order.names) else {
                return Self.problem(400, "badCSR", "the CSR does not name the order's identifiers")
            }
            order.chain = chain
            order.status = "processing"
            order.remainingFinalizePolls = state.script.finalizePolls
            if order.remainingFinalizePolls == 0 { order.status = "valid" }
            state.orders[id] = order
            return withPollRetryAfter(Self.json(200, orderJSON(id, state), location: "\(Self.base)/order/\(id)"), state)
        case "cert":
            guard parts.count == 2, let id = Int(parts[1]), let chain = state.orders[id]?.chain else {
                return Self.problem(404, "malformed", "no such certificate")
            }
            return ACMEHTTPResponse(status: 200, headers: [("Content-Type", "application/pem-certificate-chain")], body: Array(chain.utf8))
        default:
            return Self.problem(404, "malformed", "\(path) is not served")
        }
    }

    /// Validation, once the challenge was answered and its processing polls are used up: asks the
    /// responder for the token's answer, as Pebble fetches it over HTTP.
    private func validateIfDue(_ id: Int, _ state: inout State, _ responder: ACMEHTTP01Tokens) {
        guard var authorization = state.authorizations[id], authorization.challenge.status == "processing" else { return }
        if authorization.challenge.remainingPolls > 0 {
            authorization.challenge.remainingPolls -= 1
            state.authorizations[id] = authorization
            return
        }
        // The key authorization is the token and the thumbprint of the account that ordered.
        let account = state.orders.values.first { $0.authorizations.contains(id) }?.account ?? ""
        let thumbprint = state.accountThumbprints[account] ?? ""
        let expected = authorization.challenge.token + "." + thumbprint
        let answer = responder.keyAuthorization(forToken: authorization.challenge.token)
        if state.script.failingNames.contains(authorization.name) || answer != expected {
            authorization.challenge.status = "invalid"
            authorization.status = "invalid"
            authorization.challenge.error = ACMEProblem(
                type: "urn:ietf:params:acme:error:unauthorized", detail: "the key authorization served for \(authorization.name) is \(answer ?? "missing")",
                status: 403)
            for (orderID, order) in state.orders where order.authorizations.contains(id) {
                state.orders[orderID]?.status = "invalid"
                state.orders[orderID]?.error = authorization.challenge.error
            }
        } else {
            authorization.challenge.status = "valid"
            authorization.status = "valid"
        }
        state.authorizations[id] = authorization
        for (orderID, order) in state.orders where order.status == "pending" && order.authorizations.allSatisfy({ state.authorizations[$0]?.status == "valid" })
        {
            state.orders[orderID]?.status = "ready"
        }
    }

    /// A leaf for the CSR's key and names, signed by the fake CA; `nil` when the CSR is not valid for `names`.
    private func issue(csr der: [UInt8], names: [String]) -> String? {
        guard let csr = try? CertificateSigningRequest(derEncoded: der), csr.publicKey.isValidSignature(csr.signature, for: csr),
            let requested = try? csr.attributes.extensionRequest?.extensions.subjectAlternativeNames
        else { return nil }
        let dnsNames = requested.compactMap { name -> String? in
            if case .dnsName(let value) = name { return value }
            return nil
        }
        guard Set(dnsNames) == Set(names) else { return nil }
        guard
            let leaf = try? Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: csr.publicKey, notValidBefore: Date(timeIntervalSince1970: 1_740_000_000),
                notValidAfter: Date(timeIntervalSince1970: 1_790_000_000), issuer: authority.subject, subject: csr.subject,
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions { SubjectAlternativeNames(requested) }, issuerPrivateKey: authorityKey),
            let leafPEM = try? leaf.serializeAsPEM().pemString, let authorityPEM = try? authority.serializeAsPEM().pemString
        else { return nil }
        return leafPEM + "\n" + authorityPEM + "\n"
    }

    private func withPollRetryAfter(_ response: ACMEHTTPResponse, _ state: State) -> ACMEHTTPResponse {
        var response = response
        if let retryAfter = state.script.pollRetryAfter { response.headers.append(("Retry-After", retryAfter)) }
        return response
    }

    private func orderJSON(_ id: Int, _ state: State) -> String {
        let order = state.orders[id]!
        var members = [
            #""status":"\#(order.status)""#,
            #""identifiers":[\#(order.names.map { #"{"type":"dns","value":"\#($0)"}"# }.joined(separator: ","))]"#,
            #""authorizations":[\#(order.authorizations.map { #""\#(Self.base)/authz/\#($0)""# }.joined(separator: ","))]"#,
            #""finalize":"\#(Self.base)/finalize/\#(id)""#,
        ]
        if order.status == "valid" { members.append(#""certificate":"\#(Self.base)/cert/\#(id)""#) }
        if let error = order.error { members.append(#""error":\#(Self.problemJSON(error))"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    private func authorizationJSON(_ id: Int, _ state: State) -> String {
        let authorization = state.authorizations[id]!
        // A dns-01 challenge first, which the client must pass over.
        return
            #"{"identifier":{"type":"dns","value":"\#(authorization.name)"},"status":"\#(authorization.status)","challenges":[{"type":"dns-01","url":"\#(Self.base)/chall-dns/\#(id)","status":"pending","token":"dns-token"},\#(challengeJSON(id, state))]}"#
    }

    private func challengeJSON(_ id: Int, _ state: State) -> String {
        let challenge = state.authorizations[id]!.challenge
        let error = challenge.error.map { #","error":\#(Self.problemJSON($0))"# } ?? ""
        return #"{"type":"http-01","url":"\#(Self.base)/chall/\#(id)","status":"\#(challenge.status)","token":"\#(challenge.token)"\#(error)}"#
    }

    private static func problemJSON(_ problem: ACMEProblem) -> String {
        String(decoding: try! JSONEncoder().encode(problem), as: UTF8.self)
    }

    static func problem(_ status: Int, _ name: String, _ detail: String) -> ACMEHTTPResponse {
        let body = problemJSON(ACMEProblem(type: "urn:ietf:params:acme:error:" + name, detail: detail, status: status))
        return ACMEHTTPResponse(status: status, headers: [("Content-Type", "application/problem+json")], body: Array(body.utf8))
    }

    private static func json(_ status: Int, _ body: String, location: String? = nil, extraHeaders: [(name: String, value: String)] = []) -> ACMEHTTPResponse {
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json")] + extraHeaders
        if let location { headers.append(("Location", location)) }
        return ACMEHTTPResponse(status: status, headers: headers, body: Array(body.utf8))
    }

    static func base64URL(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { [UInt8]($0) }
    }

    /// RFC 7638, computed here from the key the server received, independently of the client.
    static func thumbprint(_ key: P256.Signing.PublicKey) -> String {
        let raw = [UInt8](key.rawRepresentation)
        func encode(_ bytes: some Sequence<UInt8>) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(
                of: "=", with: "")
        }
        let jwk: [String: String] = ["kty": "EC", "crv": "P-256", "x": encode(raw[0..<32]), "y": encode(raw[32...])]
        let canonical = try! JSONSerialization.data(withJSONObject: jwk, options: [.sortedKeys, .withoutEscapingSlashes])
        return encode(SHA256.hash(data: canonical))
    }
}
