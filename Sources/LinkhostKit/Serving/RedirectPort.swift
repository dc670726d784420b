import Synchronization

/// The HTTPS port that redirects from plain HTTP name: `server.tls.publicPort` when set, else the
/// port the HTTPS listener bound, learnt at start (it may have been configured as port 0).
final class RedirectPort: Sendable {
    let publicPort: Int?
    let boundPort = Atomic<Int>(0)

    init(publicPort: Int?) {
        self.publicPort = publicPort
    }

    var port: Int { publicPort ?? boundPort.load(ordering: .acquiring) }
}
