import Glibc

/// How an `HTTPServer` listens and how much it lets clients take.
///
/// The defaults are safe for a public origin: bounded connections (overall and per client address),
/// an idle timeout so slow or stalled clients cannot hold a slot for ever, and a bounded amount of
/// memory and request body per connection.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// Address to bind: an IPv4 or IPv6 literal (`0.0.0.0`, `127.0.0.1`, `::`, `::1`) or `localhost`.
    public var address: String
    /// TCP port; 0 asks the kernel for a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Worker threads in libmicrohttpd's pool, each running its own epoll loop.
    public var threadCount: Int
    /// Most connections open at once; beyond it new connections are refused at accept.
    public var connectionLimit: Int
    /// Most connections open at once from one client address; 0 turns the limit off (use 0 behind
    /// a reverse proxy, where every connection comes from the proxy's address).
    public var perAddressConnectionLimit: Int
    /// Seconds a connection may stay idle (or trickle bytes) before it is closed.
    public var connectionTimeoutSeconds: Int
    /// Seconds a request's head may take, counted from the connection's opening or the previous
    /// response (so an idle keep-alive connection gets no longer either), however it trickles in.
    public var headTimeoutSeconds: Int
    /// The slowest a request body may arrive after its first second; 0 for no floor.
    public var minimumBodyBytesPerSecond: Int
    /// Bytes of memory per connection for the request line and headers; a larger head gets 414 or 431.
    public var connectionMemoryLimit: Int
    /// Largest request body accepted; larger bodies get 413.
    public var maximumBodySize: Int
    /// Pending-connection queue length passed to `listen(2)`.
    public var listenBacklog: Int
    /// Seconds a graceful stop waits for requests in flight before closing what is left.
    public var shutdownGraceSeconds: Double
    /// Seconds a stop keeps answering requests on connections already open (each answer then
    /// closes its connection) before it closes the idle ones; part of `shutdownGraceSeconds`.
    public var drainSeconds: Double
    /// A listening socket to serve instead of binding `address:port`: one the service manager
    /// passed (socket activation). It is never shut down, so it outlives this process.
    public var inheritedListener: Int32?
    /// libmicrohttpd's opportunistic read/write mode, which saves an epoll round per request.
    public var turbo: Bool
    /// Serve HTTPS with these credentials instead of plain HTTP.
    public var tls: TLSCredentials?
    /// One thread per connection instead of the epoll pool: responders and streamed bodies may then
    /// block (on a database, say) without stalling other connections. For small admin listeners;
    /// `threadCount` and `turbo` are unused, and `connectionLimit` bounds the threads.
    public var threadPerConnection: Bool
    /// Proxies whose `Forwarded`/`X-Forwarded-For` fields name the client (none by default: the
    /// peer is the client, and those fields are ignored).
    public var trustedProxies: TrustedProxies

    public init(
        address: String = "127.0.0.1",
        port: Int = 0,
        threadCount: Int = HTTPServerConfiguration.defaultThreadCount,
        connectionLimit: Int = 2048,
        perAddressConnectionLimit: Int = 256,
        connectionTimeoutSeconds: Int = 15,
        headTimeoutSeconds: Int = 10,
        minimumBodyBytesPerSecond: Int = 1024,
        connectionMemoryLimit: Int = 16 * 1024,
        maximumBodySize: Int = 64 * 1024,
        listenBacklog: Int = 4096,
        shutdownGraceSeconds: Double = 10,
        drainSeconds: Double = 1,
        inheritedListener: Int32? = nil,
        turbo: Bool = true,
        tls: TLSCredentials? = nil,
        threadPerConnection: Bool = false,
        trustedProxies: TrustedProxies = TrustedProxies()
    ) {
        self.address = address
        self.port = port
        self.threadCount = threadCount
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.connectionTimeoutSeconds = connectionTimeoutSeconds
        self.headTimeoutSeconds = headTimeoutSeconds
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
        self.connectionMemoryLimit = connectionMemoryLimit
        self.maximumBodySize = maximumBodySize
        self.listenBacklog = listenBacklog
        self.shutdownGraceSeconds = shutdownGraceSeconds
        self.drainSeconds = drainSeconds
        self.inheritedListener = inheritedListener
        self.turbo = turbo
        self.tls = tls
        self.threadPerConnection = threadPerConnection
        self.trustedProxies = trustedProxies
    }

    /// One worker per processor, as libmicrohttpd's manual recommends for its thread-pool mode.
    /// The libmicrohttpd daemons to run: one per worker thread, or one that starts a thread per
    /// connection.
    var daemonCount: Int { threadPerConnection ? 1 : threadCount }

    public static var defaultThreadCount: Int { max(1, ProcessorCount.online) }

    /// The first setting that cannot work, described for a person; `nil` when all can.
    public func problem() -> String? {
        if !(0...65535).contains(port) { return "port \(port) is outside 0...65535" }
        if !(1...256).contains(threadCount) { return "threadCount \(threadCount) is outside 1...256" }
        if !(1...1_000_000).contains(connectionLimit) { return "connectionLimit \(connectionLimit) is outside 1...1000000" }
        if !(0...1_000_000).contains(perAddressConnectionLimit) {
            return "perAddressConnectionLimit \(perAddressConnectionLimit) is outside 0...1000000"
        }
        if !(1...3600).contains(connectionTimeoutSeconds) {
            return "connectionTimeoutSeconds \(connectionTimeoutSeconds) is outside 1...3600"
        }
        if !(1...3600).contains(headTimeoutSeconds) { return "headTimeoutSeconds \(headTimeoutSeconds) is outside 1...3600" }
        if !(0...1 << 30).contains(minimumBodyBytesPerSecond) {
            return "minimumBodyBytesPerSecond \(minimumBodyBytesPerSecond) is outside 0...1073741824"
        }
        if !(4096...16 * 1024 * 1024).contains(connectionMemoryLimit) {
            return "connectionMemoryLimit \(connectionMemoryLimit) is outside 4096...16777216"
        }
        if !(0...64 * 1024 * 1024).contains(maximumBodySize) { return "maximumBodySize \(maximumBodySize) is outside 0...67108864" }
        if !(1...65535).contains(listenBacklog) { return "listenBacklog \(listenBacklog) is outside 1...65535" }
        if !(0...600).contains(shutdownGraceSeconds) { return "shutdownGraceSeconds \(shutdownGraceSeconds) is outside 0...600" }
        if !(0...60).contains(drainSeconds) { return "drainSeconds \(drainSeconds) is outside 0...60" }
        return nil
    }
}

/// Processors this process may run on, read from the OS rather than Foundation so the HTTP module
/// stays free of Foundation.
enum ProcessorCount {
    static var online: Int {
        let count = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return count > 0 ? count : 1
    }
}
