/// What the server keeps about one TCP connection: the request it is working on.
///
/// Request contexts are owned here, not by libmicrohttpd: libmicrohttpd 0.9.75 can drop a request
/// after its first line without calling the request-completed callback (seen when a query has so
/// many arguments that the connection's memory pool runs out), which would leak a context held only
/// through that callback. The connection-closed callback, which always comes, releases whatever is
/// left.
final class ConnectionState {
    /// The request in progress on this connection, from its first line to its completion.
    var current: RequestContext?
}
