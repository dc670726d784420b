import CCurl
import Dispatch
import Synchronization

/// HTTPS requests through libcurl, trusting the CA file a caller names: the ACME client's transport.
///
/// Why libcurl and not Foundation's URLSession: on Linux, URLSession cannot be given a custom CA (its
/// one setting for it is an environment variable read on Android only), and an ACME server on a
/// private CA, or Pebble in the tests, must be trusted by a PEM file. libcurl takes one per request
/// (`CURLOPT_CAINFO`); it is on every machine that runs linkhost already (URLSession loads it).
///
/// Safe to call from any thread at once: a transfer owns its easy handle from start to end. Handles
/// are kept in a small pool between transfers (reset, so no option leaks from one request to the
/// next) because a handle keeps its connection cache: the requests of an ACME order go to one host
/// and reuse one TLS connection. Redirects are followed only when a request asks for it.
public final class CurlHTTPClient: Sendable {
    public let configuration: CurlHTTPConfiguration
    private let idleHandles = Mutex<[EasyHandle]>([])
    /// Handles kept between transfers; more transfers than this at once make handles that are
    /// thrown away afterwards.
    private static let idleLimit = 4

    public init(configuration: CurlHTTPConfiguration = CurlHTTPConfiguration()) {
        _ = Self.globalInitialization
        self.configuration = configuration
    }

    /// libcurl's process-wide setup, once, before the first handle (a `static let` runs exactly once).
    private static let globalInitialization: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Performs `request` on the calling thread, which it blocks until the transfer ends or times out.
    public func perform(_ request: CurlHTTPRequest) throws(CurlHTTPError) -> CurlHTTPResponse {
        let handle = try takeHandle()
        defer { giveBack(handle) }
        let transfer = CurlTransfer(handle: handle.pointer, configuration: configuration, request: request)
        return try transfer.run()
    }

    /// Performs `request` on a thread of libdispatch's global pool, never blocking a thread of Swift's
    /// cooperative pool; the configured timeout bounds how long it can take.
    public func send(_ request: CurlHTTPRequest) async throws(CurlHTTPError) -> CurlHTTPResponse {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<CurlHTTPResponse, CurlHTTPError>, Never>) in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: Result { () throws(CurlHTTPError) in try self.perform(request) })
            }
        }
        return try result.get()
    }

    private func takeHandle() throws(CurlHTTPError) -> EasyHandle {
        if let handle = idleHandles.withLock({ $0.popLast() }) {
            curl_easy_reset(handle.pointer)
            return handle
        }
        guard let pointer = curl_easy_init() else { throw CurlHTTPError(reason: .other, code: -1, message: "curl_easy_init failed") }
        return EasyHandle(pointer: pointer)
    }

    private func giveBack(_ handle: EasyHandle) {
        idleHandles.withLock { handles in
            if handles.count < Self.idleLimit { handles.append(handle) }
        }
    }
}

/// One libcurl easy handle, cleaned up when the last reference goes. Used by one transfer at a time
/// (the pool hands it to one caller), which is what libcurl asks of a handle.
final class EasyHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer

    init(pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    deinit {
        curl_easy_cleanup(pointer)
    }
}
