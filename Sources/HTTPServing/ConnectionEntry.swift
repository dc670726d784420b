import Glibc
import Synchronization

/// One accepted connection as the server's own accept loop sees it: its socket, its peer, and where
/// its current exchange is, stamped with when it got there.
///
/// The worker thread that owns the connection moves it along (`awaitingHead` → `readingBody` →
/// `responding` → `awaitingHead`); the accept loop reads the stamp to close a connection that trickles
/// its head or body, to pick an idle victim at the connection limit, and to close idle connections at
/// the end of a stop's drain. Phase and time share one atomic word, so a reader never pairs one
/// phase with another phase's time.
package final class ConnectionEntry: Sendable {
    package enum Phase: UInt64, Sendable {
        /// Open with no request under way: idle, or its next head still arriving.
        case awaitingHead = 0
        /// The head is in; the body (often empty) is being read.
        case readingBody = 1
        /// A response is queued or going out.
        case responding = 2
        /// The accept loop has shut the socket down; libmicrohttpd has not closed it yet.
        case closing = 3
    }

    /// The phase and the millisecond it began, as one word.
    package struct Stamp: Equatable, Sendable {
        package let phase: Phase
        package let milliseconds: Int64

        package init(_ phase: Phase, at milliseconds: Int64) {
            self.phase = phase
            self.milliseconds = milliseconds
        }

        init(word: UInt64) {
            phase = Phase(rawValue: word >> 62) ?? .closing
            milliseconds = Int64(bitPattern: word & Self.timeMask)
        }

        var word: UInt64 { phase.rawValue << 62 | (UInt64(bitPattern: milliseconds) & Self.timeMask) }

        private static let timeMask: UInt64 = (1 << 62) - 1
    }

    package let descriptor: Int32
    package let peer: PeerKey
    /// Which of the server's libmicrohttpd daemons serves it.
    package let daemonIndex: Int
    private let stampWord: Atomic<UInt64>
    /// Set once libmicrohttpd has announced the connection (its started notification): only then is
    /// the descriptor known to be libmicrohttpd's live socket, safe to shut down until it is closed.
    let announced = Atomic<Bool>(false)

    package init(descriptor: Int32, peer: PeerKey, daemonIndex: Int, openedAt milliseconds: Int64) {
        self.descriptor = descriptor
        self.peer = peer
        self.daemonIndex = daemonIndex
        stampWord = Atomic(Stamp(.awaitingHead, at: milliseconds).word)
    }

    package var stamp: Stamp { Stamp(word: stampWord.load(ordering: .relaxed)) }

    /// Bytes of the current body read so far (set by the worker thread, read by the sweep).
    private let bodyBytesRead = Atomic<Int>(0)
    package var bodyBytes: Int { bodyBytesRead.load(ordering: .relaxed) }

    /// `count` more bytes of the current body arrived.
    package func bodyArrived(_ count: Int) { bodyBytesRead.add(count, ordering: .relaxed) }

    /// Moves to `phase` from now (called by the connection's worker thread only); a new body
    /// starts its count at zero.
    package func enter(_ phase: Phase, at milliseconds: Int64) {
        if phase == .readingBody { bodyBytesRead.store(0, ordering: .relaxed) }
        stampWord.store(Stamp(phase, at: milliseconds).word, ordering: .relaxed)
    }

    /// Marks the entry closing if its stamp is still `seen`: false when its worker moved it on
    /// meanwhile (a request began), so the caller leaves it alone.
    func markClosing(ifStill seen: Stamp, at milliseconds: Int64) -> Bool {
        stampWord.compareExchange(expected: seen.word, desired: Stamp(.closing, at: milliseconds).word, ordering: .relaxed).exchanged
    }

    /// Milliseconds on the monotonic clock, the unit of stamps.
    static func milliseconds(_ instant: Duration) -> Int64 {
        let (seconds, attoseconds) = instant.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

/// A peer's IP address as two words, cheap to hash and compare (IPv4 as its IPv4-mapped IPv6 form,
/// so a dual-stack listener counts one client once however it arrives).
package struct PeerKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The key of an `AF_INET` or `AF_INET6` address; one shared key for anything else.
    init(_ address: UnsafeRawPointer) {
        let family = Int32(address.loadUnaligned(as: sa_family_t.self))
        if family == AF_INET {
            let ipv4 = UInt32(bigEndian: address.loadUnaligned(fromByteOffset: MemoryLayout<sockaddr_in>.offset(of: \.sin_addr)!, as: UInt32.self))
            self.init(high: 0, low: 0xFFFF_0000_0000 | UInt64(ipv4))
        } else if family == AF_INET6 {
            let offset = MemoryLayout<sockaddr_in6>.offset(of: \.sin6_addr)!
            self.init(
                high: UInt64(bigEndian: address.loadUnaligned(fromByteOffset: offset, as: UInt64.self)),
                low: UInt64(bigEndian: address.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)))
        } else {
            self.init(high: .max, low: .max)
        }
    }
}
