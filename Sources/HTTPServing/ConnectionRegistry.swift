import Glibc
import Synchronization

/// Every connection a server's accept loop has handed to libmicrohttpd, by socket and by peer: the
/// limits (in all and per address), who gives way at the limit, which connections trickle, and which
/// are idle when a stop's drain ends.
///
/// Why here and not in libmicrohttpd: 0.9.75 refuses at its connection limit before the program sees
/// the connection, restarts its timeout on every byte (a head sent one line every few seconds keeps a
/// connection forever), and cannot close one connection from outside its callbacks. The accept loop
/// sees every connection first, so the choices live here; closing is `shutdown(2)` on the socket,
/// which makes libmicrohttpd's next read fail and close the connection the usual way.
///
/// Safety of that shutdown: an entry is shut down only after libmicrohttpd announced the connection
/// and before its closed notification, which libmicrohttpd 0.9.75 sends before it closes the socket
/// (daemon.c, `MHD_cleanup_connections`): under this lock the descriptor is that connection's.
package final class ConnectionRegistry: Sendable {
    /// What the accept loop does with a new connection.
    package enum Admission {
        /// In; `displaced` when an idle connection of a busier address was closed to make room.
        case admitted(ConnectionEntry, displaced: Bool)
        case refused(Refusal)
    }

    package enum Refusal: Equatable, Sendable {
        /// The peer holds `perAddressLimit` connections already.
        case perAddressLimit
        /// Every slot is taken and no busier peer has an idle connection to give up.
        case connectionLimit
    }

    package struct Limits: Sendable {
        /// Connections in all.
        package var total: Int
        /// Connections per peer address; 0 for none.
        package var perAddress: Int
        /// How long a head may take (an idle keep-alive connection's wait included), in milliseconds.
        package var headMilliseconds: Int64
        /// The slowest a body may arrive once its first second is over; 0 for no floor.
        package var bodyBytesPerSecond: Int

        package init(total: Int, perAddress: Int, headMilliseconds: Int64, bodyBytesPerSecond: Int) {
            self.total = total
            self.perAddress = perAddress
            self.headMilliseconds = headMilliseconds
            self.bodyBytesPerSecond = bodyBytesPerSecond
        }

        /// Whether a body that began `elapsed` milliseconds ago is late with `bytes` read: it gets
        /// its first second free, then must keep up with the floor.
        package func bodyIsLate(bytes: Int, elapsed: Int64) -> Bool {
            guard bodyBytesPerSecond > 0, elapsed > Self.bodyGraceMilliseconds else { return false }
            return Int64(bytes) * 1000 < Int64(bodyBytesPerSecond) * (elapsed - Self.bodyGraceMilliseconds)
        }

        package static let bodyGraceMilliseconds: Int64 = 1000
    }

    /// What a plain-HTTP connection closed for a late head or body is sent first: nothing of a
    /// response is under way then, so the client learns why (RFC 9110 §15.5.9).
    package static let requestTimeout = closingAnswer("408 Request Timeout", "The request did not arrive in time.")

    /// A whole plain-text answer that closes its connection, written to the socket directly where
    /// libmicrohttpd has nothing under way on it (a timed-out head, a refused connection).
    static func closingAnswer(_ status: String, _ text: String, extraHeaders: String = "") -> [UInt8] {
        let body = text + "\r\n"
        return Array(
            ("HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\n\(extraHeaders)Connection: close\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
    }

    private struct Table {
        var byDescriptor: [Int32: ConnectionEntry] = [:]
        /// Live connections per peer and per daemon (those being closed no longer count).
        var perPeer: [PeerKey: Int] = [:]
        var perDaemon: [Int]
        /// Descriptors shut down here whose closed notification has not come yet.
        var closing: Set<Int32> = []

        var live: Int { byDescriptor.count - closing.count }
    }

    package let limits: Limits
    private let table: Mutex<Table>
    /// Shuts a socket down, the Bool saying whether it timed out over a head or body (a 408 may go
    /// out first); a test passes one that records instead.
    private let shutDown: @Sendable (Int32, Bool) -> Void
    /// Entries libmicrohttpd never announced are dropped after this long (it closes such a socket
    /// itself when it cannot take it, with no notification).
    package static let unannouncedMilliseconds: Int64 = 10_000

    /// - Parameter timeoutNotice: bytes written to a connection closed for a late head or body
    ///   before it is shut down (`nil` over TLS, where raw bytes are no record).
    package init(limits: Limits, daemons: Int, timeoutNotice: [UInt8]? = nil, shutDown: (@Sendable (Int32, Bool) -> Void)? = nil) {
        self.limits = limits
        self.shutDown =
            shutDown ?? { descriptor, timedOut in
                if timedOut, let timeoutNotice {
                    _ = timeoutNotice.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                }
                _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
            }
        table = Mutex(Table(perDaemon: Array(repeating: 0, count: max(1, daemons))))
    }

    /// Connections held now, those being closed included.
    package var count: Int { table.withLock { $0.byDescriptor.count } }

    /// Decides on a connection just accepted. At the limit, a peer holding fewer connections than the
    /// busiest one gets in by closing that peer's longest-idle connection.
    package func admit(descriptor: Int32, peer: PeerKey, at now: Int64) -> Admission {
        table.withLock { table in
            let held = table.perPeer[peer] ?? 0
            if limits.perAddress > 0, held >= limits.perAddress { return .refused(.perAddressLimit) }
            let displaces = table.live >= limits.total
            if displaces {
                guard let victim = Self.idleVictim(in: table, ahead: peer, holding: held), victim.markClosing(ifStill: victim.stamp, at: now)
                else { return .refused(.connectionLimit) }
                close(victim, in: &table)
            }
            let daemon = table.perDaemon.indices.min { table.perDaemon[$0] < table.perDaemon[$1] } ?? 0
            let entry = ConnectionEntry(descriptor: descriptor, peer: peer, daemonIndex: daemon, openedAt: now)
            table.byDescriptor[descriptor] = entry
            table.perPeer[peer] = held + 1
            table.perDaemon[daemon] += 1
            return .admitted(entry, displaced: displaces)
        }
    }

    /// libmicrohttpd announced the connection on `descriptor`: returns its entry, now safe to close.
    package func announce(descriptor: Int32) -> ConnectionEntry? {
        table.withLock { table in
            guard let entry = table.byDescriptor[descriptor] else { return nil }
            entry.announced.store(true, ordering: .relaxed)
            return entry
        }
    }

    /// The connection is gone (closed, or never taken by libmicrohttpd).
    package func remove(_ entry: ConnectionEntry) {
        table.withLock { table in
            guard table.byDescriptor[entry.descriptor] === entry else { return }
            table.byDescriptor[entry.descriptor] = nil
            if table.closing.remove(entry.descriptor) == nil { Self.forget(entry, in: &table) }
        }
    }

    /// Closes connections that took too long over a head or a body (a trickling client, or an idle
    /// keep-alive connection past its time) and drops entries libmicrohttpd never announced.
    /// Returns how many were closed; `closing` runs before each is answered and closed, so a count it
    /// keeps is up to date by the time the client reads the 408 (and, say, asks the counters next).
    @discardableResult
    package func sweep(at now: Int64, closing: () -> Void = {}) -> Int {
        table.withLock { table in
            var closed = 0
            for entry in table.byDescriptor.values {
                let stamp = entry.stamp
                guard entry.announced.load(ordering: .relaxed) else {
                    if now - stamp.milliseconds > Self.unannouncedMilliseconds {
                        table.byDescriptor[entry.descriptor] = nil
                        if table.closing.remove(entry.descriptor) == nil { Self.forget(entry, in: &table) }
                    }
                    continue
                }
                let late: Bool
                switch stamp.phase {
                case .awaitingHead: late = now - stamp.milliseconds >= limits.headMilliseconds
                case .readingBody: late = limits.bodyIsLate(bytes: entry.bodyBytes, elapsed: now - stamp.milliseconds)
                case .responding, .closing: continue
                }
                if late, entry.markClosing(ifStill: stamp, at: now) {
                    closing()
                    close(entry, in: &table, timedOut: true)
                    closed += 1
                }
            }
            return closed
        }
    }

    /// Closes every announced connection with no request under way (the end of a stop's drain).
    @discardableResult
    package func closeIdle(at now: Int64) -> Int {
        table.withLock { table in
            var closed = 0
            for entry in table.byDescriptor.values where entry.announced.load(ordering: .relaxed) {
                let stamp = entry.stamp
                if stamp.phase == .awaitingHead, entry.markClosing(ifStill: stamp, at: now) {
                    close(entry, in: &table)
                    closed += 1
                }
            }
            return closed
        }
    }

    /// The longest-idle announced connection of the busiest peer that has one, among the peers
    /// holding more than `held` (what the newcomer's peer holds).
    private static func idleVictim(in table: Table, ahead peer: PeerKey, holding held: Int) -> ConnectionEntry? {
        let busier = table.perPeer.filter { $0.key != peer && $0.value > held }.sorted { $0.value > $1.value }
        for (busiest, _) in busier {
            var victim: ConnectionEntry?
            var oldest = Int64.max
            for entry in table.byDescriptor.values where entry.peer == busiest && entry.announced.load(ordering: .relaxed) {
                let stamp = entry.stamp
                if stamp.phase == .awaitingHead, stamp.milliseconds < oldest, !table.closing.contains(entry.descriptor) {
                    victim = entry
                    oldest = stamp.milliseconds
                }
            }
            if let victim { return victim }
        }
        return nil
    }

    private func close(_ entry: ConnectionEntry, in table: inout Table, timedOut: Bool = false) {
        guard table.closing.insert(entry.descriptor).inserted else { return }
        Self.forget(entry, in: &table)
        shutDown(entry.descriptor, timedOut)
    }

    private static func forget(_ entry: ConnectionEntry, in table: inout Table) {
        let held = (table.perPeer[entry.peer] ?? 1) - 1
        table.perPeer[entry.peer] = held > 0 ? held : nil
        table.perDaemon[entry.daemonIndex] -= 1
    }
}
