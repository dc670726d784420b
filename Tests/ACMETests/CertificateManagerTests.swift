import ACME
import CertificateIssuing
import Foundation
import Synchronization
import TestSupport
import Testing

/// The certificate manager in-process: against the fake CA on the injected clock, stepped with
/// `loadStored` and `runDue`, so the schedule and the fail-safe paths run in milliseconds.
@Suite("ACME: certificate manager")
struct CertificateManagerTests {
    static let certificates = [
        ManagedCertificate(id: "rowhni", hosts: ["rowhni.com"]),
        ManagedCertificate(id: "awful", hosts: ["forums.somethingawful.com", "archives.somethingawful.com"]),
    ]
    /// The fake CA's certificates run from 1_740_000_000 to 1_790_000_000: two thirds is here.
    static let twoThirds = Date(timeIntervalSince1970: 1_740_000_000 + 50_000_000.0 * 2 / 3)

    /// What was installed, in order.
    final class RecordingSink: IssuedCertificateSink {
        let installed = Mutex<[(hosts: [String], chainPEM: String)]>([])
        func install(chainPEM: String, keyPEM: String, hosts: [String]) throws {
            installed.withLock { $0.append((hosts, chainPEM)) }
        }
        var hosts: [[String]] { installed.withLock { $0.map(\.hosts) } }
    }

    /// Fails with the scripted errors first, then orders from the fake CA.
    final class ScriptedOrdering: CertificateOrdering {
        let inner: ACMECertificateOrdering
        let failures = Mutex<[ACMEError]>([])
        let attempts = Atomic<Int>(0)

        init(_ inner: ACMECertificateOrdering, failing: [ACMEError] = []) {
            self.inner = inner
            failures.withLock { $0 = failing }
        }

        func order(_ certificate: ManagedCertificate) async throws(ACMEError) -> ACMEIssuedCertificate {
            attempts.add(1, ordering: .relaxed)
            if let error = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
            return try await inner.order(certificate)
        }
    }

    /// The order harness's folder, fake CA and clock, with the manager's settings.
    struct Setup {
        let harness: OrderHarness
        let settings: CertificateIssuingSettings
        var storage: ACMEStorage { harness.storage }
        var clock: TestClock { harness.clock }

        init() throws {
            harness = try OrderHarness()
            var settings = CertificateIssuingSettings(
                directoryURL: FakeACMEServer.directoryURL, email: "ops@rowhni.com", termsOfServiceAgreed: true, caCertificateFile: nil,
                storageFolder: harness.storage.folder)
            settings.pollInterval = 0.25
            self.settings = settings
        }

        func manager(
            failing: [ACMEError] = [], sink: RecordingSink = RecordingSink(), settings: CertificateIssuingSettings? = nil,
            managerClock: (any ACMEClock)? = nil
        ) -> (CertificateManager, ScriptedOrdering) {
            let settings = settings ?? self.settings
            let ordering = ScriptedOrdering(
                ACMECertificateOrdering(settings: settings, storage: storage, responder: harness.tokens, transport: harness.server, clock: clock),
                failing: failing)
            let manager = CertificateManager(
                certificates: CertificateManagerTests.certificates, settings: settings, ordering: ordering, storage: storage, sink: sink,
                clock: managerClock ?? clock)
            return (manager, ordering)
        }
    }

    static let unreachable = ACMEError.transport(url: FakeACMEServer.directoryURL, detail: "Couldn't connect to server")

    @Test func ordersWhatIsMissingAndRenewsAtTwoThirdsOfTheLifetime() async throws {
        let setup = try Setup()
        let sink = RecordingSink()
        let (manager, ordering) = setup.manager(sink: sink)
        await manager.loadStored()
        #expect(sink.hosts.isEmpty, "nothing stored yet")
        #expect(await manager.nextDue() == setup.clock.now(), "both are due at once")
        await manager.runDue()
        #expect(sink.hosts == Self.certificates.map(\.hosts))
        let records = await manager.currentRecords()
        #expect(records.map(\.issuer) == ["CN=Fake ACME CA", "CN=Fake ACME CA"])
        #expect(
            records.allSatisfy { abs($0.nextRenewal?.timeIntervalSince(Self.twoThirds) ?? 1) < 0.001 && $0.lastError == nil && $0.serial != nil }, "\(records)")
        #expect(!manager.board.isDegraded(at: setup.clock.now()))

        // A day before the renewal nothing is ordered; at it, both are renewed.
        setup.clock.advance(by: Self.twoThirds.timeIntervalSince(setup.clock.now()) - 86_400)
        await manager.runDue()
        #expect(ordering.attempts.load(ordering: .relaxed) == 2)
        setup.clock.advance(by: 86_401)
        await manager.runDue()
        #expect(ordering.attempts.load(ordering: .relaxed) == 4)
        #expect(sink.hosts.count == 4)
    }

    @Test func renewDaysBeforeMovesTheRenewal() {
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let end = start.addingTimeInterval(90 * 86_400)
        #expect(RenewalSchedule.renewal(notBefore: start, notAfter: end, daysBefore: nil) == start.addingTimeInterval(60 * 86_400))
        #expect(RenewalSchedule.renewal(notBefore: start, notAfter: end, daysBefore: 10) == start.addingTimeInterval(80 * 86_400))
        // A margin longer than the lifetime falls back to two thirds rather than renewing forever.
        #expect(RenewalSchedule.renewal(notBefore: start, notAfter: end, daysBefore: 100) == start.addingTimeInterval(60 * 86_400))
    }

    /// A restart with the CA down serves the stored certificates before anything is asked; the
    /// failed renewal keeps them, is retried by the backoff, and says why with the fix.
    @Test func aRestartWithTheCADownServesTheStoredCertificates() async throws {
        let setup = try Setup()
        await setup.manager().0.runDue()

        let sink = RecordingSink()
        let (restarted, ordering) = setup.manager(failing: Array(repeating: Self.unreachable, count: 10), sink: sink)
        await restarted.loadStored()
        #expect(sink.hosts == Self.certificates.map(\.hosts), "served from the storage at once")
        await restarted.runDue()
        #expect(ordering.attempts.load(ordering: .relaxed) == 0, "not due: the CA is not asked")

        await restarted.renewNow()
        await restarted.runDue()
        #expect(ordering.attempts.load(ordering: .relaxed) == 2)
        #expect(sink.hosts.count == 2, "the stored certificates stay")
        let record = try #require(await restarted.currentRecords().first)
        #expect(record.lastError?.contains("no answer from \(FakeACMEServer.directoryURL)") == true)
        #expect(record.lastErrorFix?.hasPrefix("server.tls.acme.directory (\(FakeACMEServer.directoryURL)) does not answer") == true)
        #expect(record.nextRenewal == setup.clock.now().addingTimeInterval(60), "the first retry after a minute")
        #expect(!restarted.board.isDegraded(at: setup.clock.now()), "a stored certificate is served")
        // Failing for a day makes the health report degraded.
        #expect(restarted.board.isDegraded(at: setup.clock.now().addingTimeInterval(86_400)))
        // The record is kept for `linkhost certificates` and the next start.
        let saved = try #require(try setup.storage.record(CertificateRecord.self, named: "status", for: "rowhni"))
        #expect(saved.failures == 1 && saved.lastError == record.lastError)
    }

    @Test func withNothingStoredAFailureIsDegradedAndBacksOffWithTheServersTime() async throws {
        let setup = try Setup()
        let retryAfter = setup.clock.now().addingTimeInterval(7_200)
        let limited = ACMEError.rateLimited(ACMEProblem(type: "urn:ietf:params:acme:error:rateLimited", detail: "too many"), url: "x", retryAfter: retryAfter)
        let (manager, ordering) = setup.manager(failing: [limited, Self.unreachable, Self.unreachable])
        await manager.runDue()
        var records = await manager.currentRecords()
        #expect(records[0].nextRenewal == retryAfter, "never before the CA's Retry-After")
        #expect(records[1].nextRenewal == setup.clock.now().addingTimeInterval(60))
        #expect(manager.board.isDegraded(at: setup.clock.now()), "no certificate served")
        if case .array(let entries) = manager.board.healthSection(at: setup.clock.now()), case .object(let fields) = entries[1] {
            #expect(fields.contains { $0.key == "fix" && $0.value != .null })
        } else {
            Issue.record("no health section")
        }
        // The second failure in a row waits twice as long.
        setup.clock.advance(by: 60)
        await manager.runDue()
        records = await manager.currentRecords()
        #expect(records[1].failures == 2 && records[1].nextRenewal == setup.clock.now().addingTimeInterval(120))
        #expect(ordering.attempts.load(ordering: .relaxed) == 3)
        // Once the CA answers, both are issued and the errors cleared.
        setup.clock.advance(by: 7_200)
        await manager.runDue()
        records = await manager.currentRecords()
        #expect(records.allSatisfy { $0.lastError == nil && $0.failures == 0 && $0.notAfter != nil }, "\(records)")
        #expect(!manager.board.isDegraded(at: setup.clock.now()))
    }

    @Test func theBackgroundLoopOrdersWithoutBeingStepped() async throws {
        let setup = try Setup()
        let sink = RecordingSink()
        // The loop's own sleeps last as long as they say: with the test clock, which returns from
        // every sleep at once, the loop renewed without end and kept the cooperative threads busy
        // enough, on a loaded machine, that the test's polls went unanswered for 20 s.
        let (manager, _) = setup.manager(sink: sink, managerClock: WaitingClock(setup.clock))
        await manager.start()
        #expect(await waitUntil(timeoutSeconds: 20) { await manager.issuedCount >= 2 })
        await manager.stop()
        #expect(sink.hosts.count >= 2)
    }

    /// A directory URL that answers 404, or a page that is no ACME directory: the record's fix says
    /// which, naming the setting.
    @Test(arguments: [
        (404, "text/html", "<h1>Not Found</h1>", "server.tls.acme.directory answers 404"),
        (200, "text/html", "<html>Welcome</html>", "server.tls.acme.directory is not an ACME directory"),
    ])
    func aDirectoryThatIsNoneSaysSo(status: Int, type: String, body: String, fix: String) async throws {
        struct StaticTransport: ACMETransport {
            let response: ACMEHTTPResponse
            func send(_ request: ACMEHTTPRequest) async throws -> ACMEHTTPResponse { response }
        }
        let setup = try Setup()
        let transport = StaticTransport(response: ACMEHTTPResponse(status: status, headers: [("Content-Type", type)], body: Array(body.utf8)))
        let ordering = ACMECertificateOrdering(
            settings: setup.settings, storage: setup.storage, responder: setup.harness.tokens, transport: transport, clock: setup.clock)
        let manager = CertificateManager(
            certificates: Self.certificates, settings: setup.settings, ordering: ordering, storage: setup.storage, sink: RecordingSink(), clock: setup.clock)
        await manager.runDue()
        let record = try #require(await manager.currentRecords().first)
        #expect(record.lastErrorFix?.hasPrefix(fix) == true, "\(record)")
        #expect(manager.board.isDegraded(at: setup.clock.now()))
    }
}

/// The test clock's time, with sleeps that really wait (until cancelled, for a deadline far off):
/// for a loop that must rest between its turns.
private struct WaitingClock: ACMEClock {
    let base: TestClock

    init(_ base: TestClock) {
        self.base = base
    }

    func now() -> Date { base.now() }

    func sleep(until deadline: Date) async throws {
        let seconds = deadline.timeIntervalSince(base.now())
        if seconds > 0 { try await Task.sleep(for: .milliseconds(Int64(min(seconds, 86_400) * 1000))) }
    }
}
