/// What the server keeps about one request from its first line to the end of the exchange.
///
/// libmicrohttpd calls the handler several times per request (head, body chunks, end of body) on
/// the one thread that owns the connection, so the fields need no locking.
final class RequestContext {
    let target: String
    var headStartedAt: UInt64 = 0
    var started = false
    var body: [UInt8] = []
    var bodyTooLarge = false
    /// Bytes of an oversized body read and dropped so far.
    var discardedBytes = 0
    var request: HTTPRequest?
    var status = 0
    var bodySize = 0
    /// Reports the ended exchange to the observer, with the responder's annotation inside.
    var completion: HTTPServer.ExchangeCompletion?
    var responded = false
    /// Kept alive by libmicrohttpd's pointer rather than by the connection (a fallback only).
    var ownedByPointer = false

    init(target: String) {
        self.target = target
    }
}
