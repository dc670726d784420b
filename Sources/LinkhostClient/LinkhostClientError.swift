import Foundation

/// Why a report failed, after any retries: the server's answer (its status, its `error` code and
/// its `detail`), a network failure, or an answer the client could not read.
///
/// The description is meant for logs and says what happened and how often it was tried; it never
/// contains the ingest key, whatever the server or the network stack put in their messages.
public struct LinkhostClientError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The kind of failure.
    public enum Kind: String, Sendable, Hashable {
        /// The server answered with an error status (see `status`, `code` and `detail`): 401 for a
        /// wrong or missing key, 404 when the server has reporting switched off, 422 for a URL that
        /// is not one of the site's links, 429 or 5xx when retries ran out.
        case server
        /// No answer: the server could not be reached, or the connection failed or timed out.
        case network
        /// The server answered 2xx but not with a route the client could read (or not over HTTP).
        case invalidResponse
    }

    /// The kind of failure.
    public let kind: Kind
    /// The HTTP status of the last answer; `nil` when there was none (`network`).
    public let status: Int?
    /// The server's short error code (its JSON `error`, such as `unauthorized`), when it sent one.
    public let code: String?
    /// What went wrong, for people: the server's JSON `detail`, or the network failure's message.
    public let detail: String
    /// How long the server asked to wait (`Retry-After`, in seconds) on its last answer, if it did.
    public let retryAfter: TimeInterval?
    /// How many times the report was sent before the client gave up.
    public let attempts: Int

    /// Makes an error value, for tests of the code that handles these errors.
    public init(kind: Kind, status: Int?, code: String?, detail: String, retryAfter: TimeInterval? = nil, attempts: Int) {
        self.kind = kind
        self.status = status
        self.code = code
        self.detail = detail
        self.retryAfter = retryAfter
        self.attempts = attempts
    }

    /// Whether the key was refused (401): the app ships a wrong key, and retrying cannot help.
    public var isUnauthorized: Bool { status == 401 }

    public var description: String {
        var text: String
        switch kind {
        case .server:
            text = "linkhost answered \(status.map(String.init) ?? "?")"
            if let code { text += " \(code)" }
            if !detail.isEmpty { text += ": \(detail)" }
        case .network:
            text = "linkhost could not be reached: \(detail)"
        case .invalidResponse:
            text = "linkhost's answer\(status.map { " (\($0))" } ?? "") could not be read: \(detail)"
        }
        text += attempts == 1 ? " (1 attempt)" : " (\(attempts) attempts)"
        return text
    }

    public var errorDescription: String? { description }

    /// This error with the attempt count set, as the retry loop learns it.
    func after(attempts: Int) -> LinkhostClientError {
        LinkhostClientError(kind: kind, status: status, code: code, detail: detail, retryAfter: retryAfter, attempts: attempts)
    }
}
