import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(os)
import os
#endif

/// Reports app opens to a linkhost server (`POST /v1/opens`) and gets back where the link leads.
///
/// An app calls it with every URL it is opened with (a Universal Link, its custom scheme, a link
/// read from the pasteboard). The server counts the open beside the link's page views, so the hit
/// log shows which links opened the app and which sent people to the store, and answers with the
/// link's route (`LinkRoute`) as its rules decide it, which the app can use as its router.
///
/// Reports are retried with exponential, jittered backoff on network failures, 5xx and 429
/// (honouring `Retry-After`) within the limits of a `RetryPolicy`; every other answer is final.
/// Cancelling the task that awaits `report` stops the retries at once.
///
/// The value is immutable and `Sendable`: make one at launch and share it. Its textual forms
/// (`description`, `dump`, `Mirror`) never show the ingest key.
public struct LinkhostClient: Sendable, CustomStringConvertible, CustomReflectable {
    /// The link host's origin, for example `https://rowhni.com`; reports go to `/v1/opens` under it.
    public let baseURL: URL
    /// When and how often a failed report is sent again.
    public let retryPolicy: RetryPolicy
    /// The session the reports are sent with.
    public let session: URLSession
    private let key: IngestKey

    /// Makes a client for the link host at `baseURL` (scheme and host, such as
    /// `https://rowhni.com`; a path is kept as a prefix).
    ///
    /// - Parameters:
    ///   - baseURL: The site's origin, one of the hosts the server's config lists for it.
    ///   - ingestKey: The site's ingest key (the server's `LINKHOST_INGEST_KEY_<SITE>` or
    ///     `LINKHOST_INGEST_KEY`). It can only submit opens, never read anything, which is why it
    ///     may ship inside an app.
    ///   - session: The `URLSession` to send with; `.shared` unless the app wants its own
    ///     configuration (proxies, protocol classes, extra headers).
    ///   - retryPolicy: Retries for network failures, 5xx and 429; `.standard` by default, `.never`
    ///     for a single attempt.
    public init(baseURL: URL, ingestKey: String, session: URLSession = .shared, retryPolicy: RetryPolicy = .standard) {
        self.baseURL = baseURL
        self.key = IngestKey(ingestKey)
        self.session = session
        self.retryPolicy = retryPolicy
    }

    /// The URL reports are posted to: `baseURL` with `/v1/opens` appended.
    public var endpoint: URL {
        baseURL.appendingPathComponent("v1").appendingPathComponent("opens")
    }

    public var description: String { "LinkhostClient(\(endpoint.absoluteString))" }

    /// What `dump` and debuggers show: the endpoint and the policy, the key only as redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["endpoint": endpoint, "retryPolicy": retryPolicy, "ingestKey": key], displayStyle: .struct)
    }

    /// Reports that the app was opened with `openedURL` and returns the link's route.
    ///
    /// Call it from `.onOpenURL` or `application(_:continue:restorationHandler:)` when the app
    /// wants the server's routing; use `reportInBackground` when it only wants the open counted.
    ///
    /// - Parameters:
    ///   - openedURL: The URL exactly as the app received it, with the `lh_view` token a fallback
    ///     page put on it (the server pairs the open with that page view, and routes and logs the
    ///     link without it).
    ///   - source: How the app was opened with it.
    ///   - openedAt: When the app was opened (now, unless the report is sent later).
    ///   - viewToken: A view token the app was handed apart from the URL; `nil` for the usual case,
    ///     where it is in the URL.
    /// - Returns: The route of the link as the server's rules decide it (without any `lh_view`).
    /// - Throws: `LinkhostClientError` when the server refused the report (`status` 401 for a wrong
    ///   key, 422 for a URL that is none of the site's links ...), when it could not be reached, or
    ///   when its answer was unreadable, after the retries the policy allows; `CancellationError`
    ///   when the calling task is cancelled, which ends any wait or request in flight.
    public func report(openedURL: URL, source: OpenSource = .universalLink, openedAt: Date = Date(), viewToken: String? = nil) async throws -> LinkRoute {
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.setValue("Bearer \(key.secret)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.httpBody = try OpenReport(url: openedURL.absoluteString, openedAt: openedAt, source: source, view: viewToken).encoded()

        let start = ProcessInfo.processInfo.systemUptime
        var attempts = 0
        while true {
            try Task.checkCancellation()
            attempts += 1
            request.timeoutInterval = retryPolicy.attemptTimeout
            let failure: AttemptFailure
            do {
                return try await send(request)
            } catch let attemptFailure as AttemptFailure {
                failure = attemptFailure
            }
            guard failure.retryable, attempts < retryPolicy.maximumAttempts else { throw failure.error.after(attempts: attempts) }
            var pause = retryPolicy.delay(beforeRetry: attempts)
            if let asked = failure.error.retryAfter { pause = max(pause, asked) }
            let elapsed = ProcessInfo.processInfo.systemUptime - start
            guard elapsed + pause <= retryPolicy.maximumTotalTime else { throw failure.error.after(attempts: attempts) }
            try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
        }
    }

    /// Reports the open without waiting for it: returns at once (it never blocks the calling
    /// thread, the main thread included) and sends the report on a background task, with the same
    /// retries as `report`. A failure is written to the log (the unified log on Apple platforms,
    /// subsystem `linkhost.client`) and otherwise ignored: for apps that want opens counted but
    /// route links themselves.
    ///
    /// - Parameters:
    ///   - openedURL: The URL exactly as the app received it.
    ///   - source: How the app was opened with it.
    ///   - openedAt: When the app was opened.
    ///   - viewToken: A view token handed to the app apart from the URL (see `report`).
    ///   - onFailure: Called, on the background task, with the error when the report fails for
    ///     good (not when the returned task is cancelled); after the failure was logged.
    /// - Returns: The task sending the report; keep it only to cancel it or to await its end.
    @discardableResult
    public func reportInBackground(
        openedURL: URL, source: OpenSource = .universalLink, openedAt: Date = Date(), viewToken: String? = nil,
        onFailure: (@Sendable (any Error) -> Void)? = nil
    ) -> Task<Void, Never> {
        Task.detached(priority: .utility) { [self] in
            do {
                _ = try await report(openedURL: openedURL, source: source, openedAt: openedAt, viewToken: viewToken)
            } catch is CancellationError {
                return
            } catch {
                BackgroundReportLog.record("reporting an open failed: \(error)")
                onFailure?(error)
            }
        }
    }

    /// One attempt: the route, or an `AttemptFailure` saying whether to try again; a cancelled
    /// task ends in `CancellationError`.
    private func send(_ request: URLRequest) async throws -> LinkRoute {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await SessionLoader.data(for: request, session: session)
        } catch {
            try Task.checkCancellation()
            throw networkFailure(error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw AttemptFailure(
                error: LinkhostClientError(kind: .invalidResponse, status: nil, code: nil, detail: "the answer is not HTTP", attempts: 1), retryable: false)
        }
        let status = http.statusCode
        if (200..<300).contains(status) {
            do {
                return try JSONDecoder().decode(LinkRoute.self, from: data)
            } catch {
                let detail = "the body is not a route (site, rule, appURL, parameters): \(error)"
                throw AttemptFailure(
                    error: LinkhostClientError(kind: .invalidResponse, status: status, code: nil, detail: key.redact(detail), attempts: 1), retryable: false)
            }
        }
        let body = try? JSONDecoder().decode(ServerErrorBody.self, from: data)
        let detail = body?.detail ?? HTTPURLResponse.localizedString(forStatusCode: status)
        let retryAfter = http.value(forHTTPHeaderField: "Retry-After").flatMap { RetryAfter.seconds(in: $0) }
        let error = LinkhostClientError(
            kind: .server, status: status, code: body?.error.map(key.redact), detail: key.redact(detail), retryAfter: retryAfter, attempts: 1)
        throw AttemptFailure(error: error, retryable: status == 429 || (500...599).contains(status))
    }

    /// A failure without an answer; retried unless it is one no retry can fix (a malformed URL,
    /// a certificate the system does not trust, a connection the app's settings forbid).
    private func networkFailure(_ error: any Error) -> AttemptFailure {
        let permanent: Set<URLError.Code> = [
            .badURL, .unsupportedURL, .cancelled, .userCancelledAuthentication, .userAuthenticationRequired,
            .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot,
            .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection,
        ]
        let retryable = (error as? URLError).map { !permanent.contains($0.code) } ?? false
        let detail = key.redact((error as? URLError).map { "\($0.localizedDescription) (URLError \($0.code.rawValue))" } ?? "\(error)")
        return AttemptFailure(error: LinkhostClientError(kind: .network, status: nil, code: nil, detail: detail, attempts: 1), retryable: retryable)
    }
}

/// Reads a `Retry-After` header: a number of seconds (`120`) or an HTTP date
/// (`Wed, 21 Oct 2026 07:28:00 GMT`), as RFC 9110 allows both.
enum RetryAfter {
    /// The wait the header asks for, in seconds from `now` (never negative); `nil` when the value
    /// is neither form.
    static func seconds(in value: String, now: Date = Date()) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return TimeInterval(trimmed).map { min($0, 86_400) }
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}

/// Where `reportInBackground` writes the failures it swallows: the unified log on Apple platforms
/// (subsystem `linkhost.client`), standard error elsewhere.
enum BackgroundReportLog {
    static func record(_ message: String) {
        #if canImport(os)
        os_log(.error, log: OSLog(subsystem: "linkhost.client", category: "opens"), "%{public}@", message)
        #else
        FileHandle.standardError.write(Data("linkhost client: \(message)\n".utf8))
        #endif
    }
}

/// One attempt's failure, as the retry loop sees it: the error to throw if it gives up, and
/// whether another attempt could succeed.
struct AttemptFailure: Error, Sendable {
    let error: LinkhostClientError
    let retryable: Bool
}

/// The JSON body of an error answer: `{"error": "<short code>", "detail": "<human text>"}`. Both
/// are optional here, so a partial body still yields what it has.
struct ServerErrorBody: Decodable, Sendable {
    let error: String?
    let detail: String?
}
