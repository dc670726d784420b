import Foundation

/// The requests of RFC 8555 against one ACME server, signed with one account key.
///
/// Every POST is a JWS signed with the account key (`jwk` in its header for newAccount, `kid` once
/// the account URL is known) over a fresh nonce. Nonces come from each response's `Replay-Nonce`
/// and from `newNonce` (HEAD) when none is left; a `badNonce` refusal is retried with the nonce that
/// came with it (RFC 8555 §6.5: Pebble refuses 5 % of nonces by default, Let's Encrypt some). Every
/// resource is fetched by POST-as-GET (§6.3), the only way Pebble and RFC 8555 allow.
public actor ACMEClient {
    public nonisolated let directoryURL: String
    public nonisolated let accountKey: ACMEAccountKey
    /// The account's URL (its `kid`), `nil` until `registerAccount` ran or `useAccount` set it.
    public private(set) var accountURL: String?
    private let transport: any ACMETransport
    private let clock: any ACMEClock
    private let badNonceAttempts: Int
    private let rateLimitBackoff: TimeInterval
    private var cachedDirectory: ACMEDirectory?
    private var nonces: [String] = []

    /// - Parameters:
    ///   - badNonceAttempts: how many times one request is sent when the server keeps refusing its
    ///     nonce (at 5 % refused, ten attempts all refused is a 1 in 10¹³ chance).
    ///   - rateLimitBackoff: how long a `rateLimited` refusal without `Retry-After` waits.
    public init(
        directoryURL: String, transport: any ACMETransport, accountKey: ACMEAccountKey, accountURL: String? = nil, clock: any ACMEClock = ACMESystemClock(),
        badNonceAttempts: Int = 10, rateLimitBackoff: TimeInterval = 3600
    ) {
        self.directoryURL = directoryURL
        self.transport = transport
        self.accountKey = accountKey
        self.accountURL = accountURL
        self.clock = clock
        self.badNonceAttempts = max(1, badNonceAttempts)
        self.rateLimitBackoff = rateLimitBackoff
    }

    /// Sets the account URL known from an earlier registration (kept in `ACMEStorage`); `nil`
    /// forgets it, so the next `registerAccount` looks the key's account up again.
    public func useAccount(_ url: String?) {
        accountURL = url
    }

    /// The directory, fetched once (GET, not signed).
    public func directory() async throws(ACMEError) -> ACMEDirectory {
        if let cachedDirectory { return cachedDirectory }
        let response = try await send(ACMEHTTPRequest(method: .get, url: directoryURL, headers: [("Accept", "application/json")]))
        guard response.status == 200 else {
            throw Self.error(from: response, url: directoryURL, now: clock.now(), rateLimitBackoff: rateLimitBackoff)
        }
        let directory = try Self.decode(ACMEDirectory.self, from: response, url: directoryURL)
        cachedDirectory = directory
        return directory
    }

    /// Creates the account, or finds the one this key already has (RFC 8555 §7.3: 201 for a new
    /// one, 200 for an existing one); its URL becomes the `kid` of every later request.
    /// - Parameter contact: URIs, `mailto:` addresses for an email.
    @discardableResult
    public func registerAccount(contact: [String], termsOfServiceAgreed: Bool) async throws(ACMEError) -> ACMEResource<ACMEAccount> {
        let url = try await directory().newAccount
        let payload = try Self.encode(NewAccountPayload(termsOfServiceAgreed: termsOfServiceAgreed, contact: contact))
        let response = try await post(url, payload: payload, signer: .jwk(accountKey.jwk))
        guard response.status == 201 || response.status == 200, let location = response.header("Location") else {
            throw ACMEError.unexpectedResponse(url: url, status: response.status, detail: "newAccount answered without a Location")
        }
        accountURL = location
        return ACMEResource(value: try Self.decode(ACMEAccount.self, from: response, url: url), url: location)
    }

    /// Orders a certificate for `names` (RFC 8555 §7.4); the resource's URL is the order's.
    public func newOrder(for names: [String]) async throws(ACMEError) -> ACMEResource<ACMEOrder> {
        let url = try await directory().newOrder
        let payload = try Self.encode(NewOrderPayload(identifiers: names.map(ACMEIdentifier.dns)))
        let response = try await post(url, payload: payload)
        guard response.status == 201, let location = response.header("Location") else {
            throw ACMEError.unexpectedResponse(url: url, status: response.status, detail: "newOrder answered without 201 and a Location")
        }
        return try resource(ACMEOrder.self, from: response, url: location, requested: url)
    }

    /// The order at `url` (POST-as-GET).
    public func order(at url: String) async throws(ACMEError) -> ACMEResource<ACMEOrder> {
        try resource(ACMEOrder.self, from: try await postAsGet(url), url: url)
    }

    /// The authorization at `url` (POST-as-GET).
    public func authorization(at url: String) async throws(ACMEError) -> ACMEResource<ACMEAuthorization> {
        try resource(ACMEAuthorization.self, from: try await postAsGet(url), url: url)
    }

    /// Tells the server the challenge at `url` is ready to be validated (RFC 8555 §7.5.1: POST `{}`).
    /// The response must already be served: the server may validate before this returns.
    public func respondToChallenge(at url: String) async throws(ACMEError) -> ACMEResource<ACMEChallenge> {
        try resource(ACMEChallenge.self, from: try await post(url, payload: Array("{}".utf8)), url: url)
    }

    /// Sends the CSR (DER) to the order's `finalize` URL (RFC 8555 §7.4); returns the order.
    public func finalize(at url: String, csr: [UInt8], orderURL: String) async throws(ACMEError) -> ACMEResource<ACMEOrder> {
        let payload = try Self.encode(FinalizePayload(csr: Base64URL.encode(csr)))
        return try resource(ACMEOrder.self, from: try await post(url, payload: payload), url: orderURL, requested: url)
    }

    /// The issued chain, leaf first, as PEM (`application/pem-certificate-chain`, RFC 8555 §7.4.2).
    public func certificateChain(at url: String) async throws(ACMEError) -> String {
        let response = try await post(url, payload: [], accept: "application/pem-certificate-chain")
        guard response.status == 200 else {
            throw ACMEError.unexpectedResponse(url: url, status: response.status, detail: "the certificate download failed")
        }
        guard response.mediaType == "application/pem-certificate-chain" else {
            throw ACMEError.unexpectedResponse(
                url: url, status: response.status, detail: "the certificate came as \(response.header("Content-Type") ?? "no type"), not a PEM chain")
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    // MARK: Signed requests

    /// POST-as-GET: a signed POST with an empty payload (RFC 8555 §6.3).
    private func postAsGet(_ url: String) async throws(ACMEError) -> ACMEHTTPResponse {
        try await post(url, payload: [])
    }

    /// A signed POST, sent again with a fresh nonce while the server answers badNonce. Returns
    /// any 2xx response; a problem document is thrown as a typed error.
    private func post(_ url: String, payload: [UInt8], signer: ACMEProtectedHeader.Signer? = nil, accept: String? = nil) async throws(ACMEError)
        -> ACMEHTTPResponse
    {
        let chosenSigner: ACMEProtectedHeader.Signer
        if let signer { chosenSigner = signer } else { chosenSigner = try kidSigner() }
        var attempt = 0
        while true {
            attempt += 1
            let nonce = try await takeNonce()
            let body = try accountKey.sign(header: ACMEProtectedHeader(signer: chosenSigner, nonce: nonce, url: url), payload: payload)
            var headers = [("Content-Type", "application/jose+json")]
            if let accept { headers.append(("Accept", accept)) }
            let response = try await send(ACMEHTTPRequest(method: .post, url: url, headers: headers, body: body))
            if (200..<300).contains(response.status) { return response }
            let error = Self.error(from: response, url: url, now: clock.now(), rateLimitBackoff: rateLimitBackoff)
            if error.problem?.isBadNonce == true, attempt < badNonceAttempts { continue }
            throw error
        }
    }

    private func kidSigner() throws(ACMEError) -> ACMEProtectedHeader.Signer {
        guard let accountURL else { throw ACMEError.noAccount }
        return .kid(accountURL)
    }

    /// A nonce from an earlier response, or a new one from `newNonce`.
    private func takeNonce() async throws(ACMEError) -> String {
        if let nonce = nonces.popLast() { return nonce }
        let url = try await directory().newNonce
        let response = try await send(ACMEHTTPRequest(method: .head, url: url))
        // send() kept the Replay-Nonce (another request of this actor may have used it meanwhile:
        // then the header's value is used a second time, and a badNonce refusal replaces it).
        guard (200..<300).contains(response.status), let nonce = nonces.popLast() ?? response.header("Replay-Nonce") else {
            throw ACMEError.unexpectedResponse(url: url, status: response.status, detail: "newNonce gave no Replay-Nonce")
        }
        return nonce
    }

    /// One HTTP exchange; keeps the response's nonce for the next request.
    private func send(_ request: ACMEHTTPRequest) async throws(ACMEError) -> ACMEHTTPResponse {
        let response: ACMEHTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw ACMEError.transport(url: request.url, detail: "\(error)")
        }
        if let nonce = response.header("Replay-Nonce"), !nonce.isEmpty {
            nonces.append(nonce)
            // Only the newest few are worth keeping: servers expire nonces.
            if nonces.count > 8 { nonces.removeFirst(nonces.count - 8) }
        }
        return response
    }

    // MARK: Decoding

    private func resource<Value: Decodable & Sendable>(_ type: Value.Type, from response: ACMEHTTPResponse, url: String, requested: String? = nil)
        throws(ACMEError) -> ACMEResource<Value>
    {
        ACMEResource(
            value: try Self.decode(type, from: response, url: requested ?? url), url: url,
            retryAfter: RetryAfter.date(from: response.header("Retry-After"), now: clock.now()))
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from response: ACMEHTTPResponse, url: String) throws(ACMEError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(response.body))
        } catch {
            throw ACMEError.unexpectedResponse(url: url, status: response.status, detail: "not \(type) JSON: \(error)")
        }
    }

    static func encode(_ value: some Encodable) throws(ACMEError) -> [UInt8] {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Array(try encoder.encode(value))
        } catch {
            throw ACMEError.storage(path: "request", detail: "could not encode JSON: \(error)")
        }
    }

    /// The error for a refusal: the problem document when there is one (a `rateLimited` one with
    /// its `Retry-After`, or the default backoff), else the status and the start of the body.
    static func error(from response: ACMEHTTPResponse, url: String, now: Date, rateLimitBackoff: TimeInterval) -> ACMEError {
        let retryAfter = RetryAfter.date(from: response.header("Retry-After"), now: now)
        guard let problem = try? JSONDecoder().decode(ACMEProblem.self, from: Data(response.body)) else {
            let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            return .unexpectedResponse(url: url, status: response.status, detail: text.isEmpty ? "no problem document" : text)
        }
        if problem.isRateLimited { return .rateLimited(problem, url: url, retryAfter: retryAfter ?? now.addingTimeInterval(rateLimitBackoff)) }
        return .server(problem, url: url, retryAfter: retryAfter)
    }
}

private struct NewAccountPayload: Encodable {
    var termsOfServiceAgreed: Bool
    var contact: [String]
}

private struct NewOrderPayload: Encodable {
    var identifiers: [ACMEIdentifier]
}

private struct FinalizePayload: Encodable {
    var csr: String
}

/// An account resource (RFC 8555 §7.1.2).
public struct ACMEAccount: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case valid, deactivated, revoked
    }

    public var status: Status
    public var contact: [String]?
    public var orders: String?
}

/// A resource as the server returned it, with what the response said around it.
public struct ACMEResource<Value: Sendable>: Sendable {
    public var value: Value
    /// The resource's URL: the `Location` of a created resource, else the URL requested.
    public var url: String
    /// The server's `Retry-After`, as a time: when to poll again.
    public var retryAfter: Date?

    public init(value: Value, url: String, retryAfter: Date? = nil) {
        self.value = value
        self.url = url
        self.retryAfter = retryAfter
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): a number of seconds or an HTTP date.
enum RetryAfter {
    static func date(from value: String?, now: Date) -> Date? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return now.addingTimeInterval(Double(seconds)) }
        // IMF-fixdate, the form RFC 9110 requires senders to use. A formatter per call: this is
        // rare, and a shared DateFormatter is not documented as safe across threads on Linux.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: value)
    }
}
