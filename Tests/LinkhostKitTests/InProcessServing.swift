import LinkhostKit
import TestSupport

extension LinkhostServer {
    /// This server answering in this process through the whole serving path but the socket
    /// (`answer(_:overTLS:)`: the responder, the metrics and the hit log), as the plain-HTTP listener
    /// would; a server need not be started for it.
    var inProcess: InProcessClient { InProcessClient { self.answer($0) } }

    /// The same as the HTTPS listener would answer (the plain one redirects pages when HTTPS is on).
    var inProcessOverTLS: InProcessClient { InProcessClient { self.answer($0, overTLS: true) } }
}
