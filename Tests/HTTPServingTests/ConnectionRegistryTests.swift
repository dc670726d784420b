import HTTPServing
import Synchronization
import Testing

/// The accept loop's choices, driven step by step with the times the test picks and a shutdown that
/// only records: who gets in at the limits, who gives way, what trickles, what a drain closes.
@Suite("The connection registry")
struct ConnectionRegistryTests {
    final class ShutDowns: Sendable {
        let descriptors = Mutex<[Int32]>([])
        var all: [Int32] { descriptors.withLock { $0 } }
    }

    let shutDowns = ShutDowns()
    static let limits = ConnectionRegistry.Limits(total: 4, perAddress: 3, headMilliseconds: 15_000, bodyBytesPerSecond: 1024)

    func registry(_ limits: ConnectionRegistry.Limits = Self.limits, daemons: Int = 2) -> ConnectionRegistry {
        let shutDowns = shutDowns
        return ConnectionRegistry(limits: limits, daemons: daemons) { descriptor, _ in shutDowns.descriptors.withLock { $0.append(descriptor) } }
    }

    static func peer(_ last: UInt64) -> PeerKey { PeerKey(high: 0, low: 0xFFFF_7F00_0000 | last) }

    /// Admits and announces a connection, as the accept loop and libmicrohttpd's notification would.
    @discardableResult
    func open(_ registry: ConnectionRegistry, _ descriptor: Int32, from peer: PeerKey, at now: Int64) -> ConnectionEntry? {
        guard case .admitted = registry.admit(descriptor: descriptor, peer: peer, at: now) else { return nil }
        return registry.announce(descriptor: descriptor)
    }

    @Test func connectionsSpreadOverTheDaemonsAndCountPerAddress() throws {
        let registry = registry()
        let first = try #require(open(registry, 10, from: Self.peer(1), at: 0))
        let second = try #require(open(registry, 11, from: Self.peer(1), at: 0))
        #expect(first.daemonIndex != second.daemonIndex)
        #expect(open(registry, 12, from: Self.peer(1), at: 0) != nil)
        // The fourth from one address is over its three.
        guard case .refused(let why) = registry.admit(descriptor: 13, peer: Self.peer(1), at: 0) else {
            Issue.record("a fourth connection from one address was admitted")
            return
        }
        #expect(why == .perAddressLimit)
        #expect(registry.count == 3)
        registry.remove(first)
        #expect(open(registry, 13, from: Self.peer(1), at: 1) != nil)
        #expect(shutDowns.all.isEmpty)
    }

    @Test func atTheLimitANewcomerTakesTheBusiestAddresssLongestIdleConnection() throws {
        let registry = registry(ConnectionRegistry.Limits(total: 4, perAddress: 0, headMilliseconds: 15_000, bodyBytesPerSecond: 1024))
        let older = try #require(open(registry, 10, from: Self.peer(1), at: 100))
        let busy = try #require(open(registry, 11, from: Self.peer(1), at: 50))
        busy.enter(.readingBody, at: 60)
        open(registry, 12, from: Self.peer(1), at: 200)
        open(registry, 13, from: Self.peer(2), at: 300)
        // Full: peer 3 holds none, peer 1 holds three; its longest-idle one (not the busy one) goes.
        #expect(open(registry, 14, from: Self.peer(3), at: 400) != nil)
        #expect(shutDowns.all == [older.descriptor])
        #expect(older.stamp.phase == .closing)
        // The closed one still holds its socket until libmicrohttpd closes it, but no longer counts.
        #expect(registry.count == 5)
        registry.remove(older)
        #expect(registry.count == 4)
    }

    @Test func theBusiestAddressItselfIsRefusedAtTheLimitAndSoIsAnyoneWhenNothingIsIdle() throws {
        let registry = registry(ConnectionRegistry.Limits(total: 2, perAddress: 0, headMilliseconds: 15_000, bodyBytesPerSecond: 1024))
        let first = try #require(open(registry, 10, from: Self.peer(1), at: 0))
        let second = try #require(open(registry, 11, from: Self.peer(2), at: 0))
        // Peer 1 holds as many as anyone: it gets no one else's slot.
        guard case .refused(.connectionLimit) = registry.admit(descriptor: 12, peer: Self.peer(1), at: 5) else {
            Issue.record("the busiest peer took a slot at the limit")
            return
        }
        first.enter(.responding, at: 0)
        second.enter(.readingBody, at: 0)
        // A newcomer finds no idle connection to take.
        guard case .refused(.connectionLimit) = registry.admit(descriptor: 12, peer: Self.peer(3), at: 5) else {
            Issue.record("a busy connection was closed for a newcomer")
            return
        }
        #expect(shutDowns.all.isEmpty)
    }

    @Test func aTricklingHeadIsClosedAtItsTimeAndABodyBelowTheFloorAfterItsFirstSecond() throws {
        let registry = registry()
        let idle = try #require(open(registry, 10, from: Self.peer(1), at: 0))
        let body = try #require(open(registry, 11, from: Self.peer(1), at: 0))
        let answering = try #require(open(registry, 12, from: Self.peer(2), at: 0))
        body.enter(.readingBody, at: 5_000)
        answering.enter(.responding, at: 0)
        // The body's first second is free; then it must keep 1,024 bytes a second.
        #expect(registry.sweep(at: 6_000) == 0)
        body.bodyArrived(1_024)
        #expect(registry.sweep(at: 7_000) == 0)
        #expect(registry.sweep(at: 7_001) == 1)
        #expect(shutDowns.all == [body.descriptor])
        #expect(registry.sweep(at: 14_999) == 0)
        #expect(registry.sweep(at: 15_000) == 1)
        #expect(shutDowns.all == [body.descriptor, idle.descriptor])
        // Closing is once: a later sweep does not shut it down again.
        #expect(registry.sweep(at: 30_000) == 0)
        // A response going out is libmicrohttpd's to time (it sees the client read).
        #expect(registry.sweep(at: 1_000_000) == 0)
    }

    @Test func aBodyCountsFromZeroAgainAndNoFloorMeansNone() throws {
        let limits = ConnectionRegistry.Limits(total: 4, perAddress: 0, headMilliseconds: 15_000, bodyBytesPerSecond: 0)
        #expect(!limits.bodyIsLate(bytes: 0, elapsed: 1_000_000))
        let entry = ConnectionEntry(descriptor: 3, peer: Self.peer(1), daemonIndex: 0, openedAt: 0)
        entry.enter(.readingBody, at: 0)
        entry.bodyArrived(100)
        entry.enter(.readingBody, at: 10)
        #expect(entry.bodyBytes == 0)
    }

    @Test func anAnsweredRequestRestartsTheClockOfTheNextHead() throws {
        let registry = registry()
        let entry = try #require(open(registry, 10, from: Self.peer(1), at: 0))
        entry.enter(.readingBody, at: 10_000)
        entry.enter(.responding, at: 0)
        entry.enter(.awaitingHead, at: 10_001)
        #expect(registry.sweep(at: 25_000) == 0)
        #expect(registry.sweep(at: 25_001) == 1)
    }

    @Test func aDrainClosesTheIdleAndLeavesTheBusy() throws {
        let registry = registry()
        let idle = try #require(open(registry, 10, from: Self.peer(1), at: 0))
        let busy = try #require(open(registry, 11, from: Self.peer(1), at: 0))
        busy.enter(.responding, at: 0)
        #expect(registry.closeIdle(at: 1) == 1)
        #expect(shutDowns.all == [idle.descriptor])
    }

    @Test func aConnectionLibmicrohttpdNeverAnnouncedIsNeverShutDownAndIsForgotten() {
        let registry = registry()
        guard case .admitted = registry.admit(descriptor: 10, peer: Self.peer(1), at: 0) else {
            Issue.record("not admitted")
            return
        }
        // Unannounced, its descriptor may already be closed (and reused): never shut down.
        #expect(registry.closeIdle(at: 1) == 0)
        #expect(registry.sweep(at: ConnectionRegistry.unannouncedMilliseconds) == 0)
        #expect(registry.count == 1)
        #expect(registry.sweep(at: ConnectionRegistry.unannouncedMilliseconds + 1) == 0)
        #expect(registry.count == 0)
        #expect(shutDowns.all.isEmpty)
    }

    @Test func stampsKeepPhaseAndTimeTogether() {
        for phase in [ConnectionEntry.Phase.awaitingHead, .readingBody, .responding, .closing] {
            let entry = ConnectionEntry(descriptor: 3, peer: Self.peer(1), daemonIndex: 0, openedAt: 0)
            entry.enter(phase, at: 123_456_789_012)
            #expect(entry.stamp == ConnectionEntry.Stamp(phase, at: 123_456_789_012))
        }
    }

    /// Refusals are reported once per interval with their count; the first one at once, whatever the
    /// clock reads (a monotonic clock may start near zero or far from it).
    @Test(arguments: [Int64(0), 5_000, Int64.max / 2])
    func refusalsAreReportedOncePerInterval(start: Int64) {
        var notices = RefusalNotices()
        #expect(notices.due(at: start) == nil)
        notices.refused(3)
        #expect(notices.due(at: start) == 3)
        notices.refused(2)
        notices.refused(1)
        #expect(notices.due(at: start + RefusalNotices.intervalMilliseconds - 1) == nil)
        #expect(notices.due(at: start + RefusalNotices.intervalMilliseconds) == 3)
        #expect(notices.due(at: start + 3 * RefusalNotices.intervalMilliseconds) == nil)
    }
}
