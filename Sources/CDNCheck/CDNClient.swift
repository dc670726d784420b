import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches hosts' files from the CDN over one `URLSession`, as a device would: a plain GET with
/// `Apple-Proxied-Domain-Name`, no cookies, no cache, no redirects followed (a device treats a
/// redirect from the CDN as a failure, so a check must not hide one).
///
/// Requests end by the session's own timeouts, never by cancelling a task from another thread:
/// on Linux, cancelling a `URLSession` task while its completion runs was seen to deadlock
/// (LinkhostClient's `SessionLoader` tells the story), and a check has nothing to cancel early.
final class CDNClient: Sendable {
    private let session: URLSession
    private let timeoutSeconds: Double

    init(timeoutSeconds: Double) {
        self.timeoutSeconds = timeoutSeconds
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeoutSeconds
        configuration.timeoutIntervalForResource = timeoutSeconds
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }

    /// GETs `url` for `host`; `completion` runs on the session's queue.
    func fetch(_ url: URL, host: String, completion: @escaping @Sendable (Result<CDNAnswer, CDNFetchFailure>) -> Void) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeoutSeconds)
        request.setValue(host, forHTTPHeaderField: "Apple-Proxied-Domain-Name")
        request.setValue("linkhost-cdn-check", forHTTPHeaderField: "User-Agent")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let seconds = timeoutSeconds
        let task = session.dataTask(with: request) { data, response, error in
            if let error {
                completion(.failure(Self.failure(error, host: url.host ?? "", timeoutSeconds: seconds)))
            } else if let response = response as? HTTPURLResponse {
                completion(.success(Self.answer(response, body: data ?? Data())))
            } else {
                completion(.failure(CDNFetchFailure("no HTTP answer")))
            }
        }
        task.resume()
    }

    /// Lets the session's tasks finish and frees it (a session lives until invalidated).
    func close() {
        session.finishTasksAndInvalidate()
    }

    private static func answer(_ response: HTTPURLResponse, body: Data) -> CDNAnswer {
        let age = (response.value(forHTTPHeaderField: "Age")?.trimmingCharacters(in: .whitespaces)).flatMap { Int($0) }
        return CDNAnswer(
            status: response.statusCode, body: Array(body), age: age, lastModified: response.value(forHTTPHeaderField: "Last-Modified"),
            failureReason: response.value(forHTTPHeaderField: "Apple-Failure-Reason"),
            failureDetails: response.value(forHTTPHeaderField: "Apple-Failure-Details"))
    }

    private static func failure(_ error: any Error, host: String, timeoutSeconds: Double) -> CDNFetchFailure {
        guard let urlError = error as? URLError else { return CDNFetchFailure("\(error)") }
        switch urlError.code {
        case .timedOut: return CDNFetchFailure("no answer within \(Self.seconds(timeoutSeconds))")
        case .cannotConnectToHost: return CDNFetchFailure("cannot connect to \(host) (connection refused)")
        case .cannotFindHost, .dnsLookupFailed:
            return CDNFetchFailure("cannot resolve the CDN's host name \(host) (no DNS answer: offline, or a wrong --cdn-base)")
        case .notConnectedToInternet: return CDNFetchFailure("no network connection")
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid,
            .serverCertificateHasUnknownRoot:
            return CDNFetchFailure("the TLS connection failed: \(urlError.localizedDescription)")
        default: return CDNFetchFailure(urlError.localizedDescription)
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

/// Why the CDN gave no answer at all: no connection, no answer in time, a broken response.
public struct CDNFetchFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Stops the session from following redirects: the task then completes with the 3xx itself.
private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
