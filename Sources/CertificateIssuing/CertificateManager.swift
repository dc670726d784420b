import ACME
import Foundation
import Logging

/// Keeps every certificate of the configuration issued and fresh, without ever holding up serving.
///
/// At start it installs each stored certificate into the sink before it talks to the CA, so a
/// restart with the CA down serves at once. Then, in the background, it orders each certificate
/// that is missing, names other hosts, or is due (`RenewalSchedule`), one after another; a failure
/// is recorded with its fix and tried again by `ACMEBackoff` (never before the CA's `Retry-After`),
/// and the certificate served meanwhile stays. Orders resume from the storage after a restart
/// (`ACMEOrderFlow`). Time comes from the injected clock, so tests step the schedule in-process.
public actor CertificateManager {
    public nonisolated let board: CertificateStatusBoard
    private let certificates: [ManagedCertificate]
    private let settings: CertificateIssuingSettings
    private let ordering: any CertificateOrdering
    private let storage: ACMEStorage
    private let sink: any IssuedCertificateSink
    private let clock: any ACMEClock
    private let logger: Logger
    private var records: [String: CertificateRecord] = [:]
    /// When each certificate is ordered next.
    private var due: [String: Date] = [:]
    private var forced: Set<String> = []
    private var loaded = false
    private let wakes: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private var loop: Task<Void, Never>?
    private var timer: Task<Void, Never>?
    /// Orders completed (issued) by this process, for tests and `renew` waits.
    public private(set) var issuedCount = 0

    /// The longest the loop sleeps before it looks at the clock again (a suspended machine's
    /// sleep does not count on every clock).
    static let longestSleep: TimeInterval = 3600

    public init(
        certificates: [ManagedCertificate], settings: CertificateIssuingSettings, ordering: any CertificateOrdering, storage: ACMEStorage,
        sink: any IssuedCertificateSink, clock: any ACMEClock = ACMESystemClock(), logger: Logger = Logger(label: "linkhost.acme"),
        board: CertificateStatusBoard = CertificateStatusBoard()
    ) {
        self.certificates = certificates
        self.settings = settings
        self.ordering = ordering
        self.storage = storage
        self.sink = sink
        self.clock = clock
        self.logger = logger
        self.board = board
        (wakes, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Loads the stored certificates, then keeps ordering in the background; returns at once.
    public func start() {
        loadStored()
        guard loop == nil else { return }
        loop = Task { [weak self, wakes] in
            for await _ in wakes {
                guard let self, !Task.isCancelled else { return }
                await self.runDue()
                await self.scheduleWake()
            }
        }
        wake.yield()
    }

    public func stop() {
        loop?.cancel()
        timer?.cancel()
        wake.finish()
    }

    /// Orders every ACME certificate now, whatever its schedule (`linkhost certificates renew`).
    public func renewNow() {
        for certificate in certificates {
            forced.insert(certificate.id)
            due[certificate.id] = clock.now()
        }
        wake.yield()
    }

    /// The stored certificates into the sink, each with its renewal time; missing ones are due now.
    /// Reads only the disk: the CA is not asked.
    public func loadStored() {
        guard !loaded else { return }
        loaded = true
        let now = clock.now()
        for certificate in certificates {
            var record = (try? storage.record(CertificateRecord.self, named: "status", for: certificate.id)) ?? nil
            if record?.hosts != certificate.hosts { record = nil }
            var current = record ?? CertificateRecord(id: certificate.id, hosts: certificate.hosts, source: .acme)
            current.installedAt = nil
            do {
                if let stored = try storage.issuedCertificate(certificate.id) {
                    let facts = CertificateFacts(leaf: stored.leaf)
                    current.describe(facts)
                    install(stored, into: &current)
                    let namesAll = Set(certificate.hosts.map { $0.lowercased() }).isSubset(of: Set(facts.names.map { $0.lowercased() }))
                    let renewal = RenewalSchedule.renewal(notBefore: facts.notBefore, notAfter: facts.notAfter, daysBefore: settings.renewDaysBefore)
                    // A failing certificate keeps its backoff across the restart.
                    let retry = current.failures > 0 ? current.nextRenewal : nil
                    due[certificate.id] = namesAll ? max(renewal, retry ?? renewal) : now
                } else {
                    due[certificate.id] = current.failures > 0 ? (current.nextRenewal ?? now) : now
                }
            } catch {
                note(error, for: &current, now: now)
                due[certificate.id] = now
            }
            current.nextRenewal = due[certificate.id]
            records[certificate.id] = current
        }
        publish()
    }

    /// Orders each certificate that is due, one after another.
    public func runDue() async {
        loadStored()
        for certificate in certificates {
            guard !Task.isCancelled else { return }
            let now = clock.now()
            guard forced.contains(certificate.id) || (due[certificate.id] ?? now) <= now else { continue }
            forced.remove(certificate.id)
            await attempt(certificate)
        }
    }

    /// When the next order is due; `nil` with nothing to order.
    public func nextDue() -> Date? { due.values.min() }

    /// The record of each certificate, in the configuration's order.
    public func currentRecords() -> [CertificateRecord] { certificates.compactMap { records[$0.id] } }

    private func attempt(_ certificate: ManagedCertificate) async {
        var record = records[certificate.id] ?? CertificateRecord(id: certificate.id, hosts: certificate.hosts, source: .acme)
        logger.info("ordering a certificate for \(certificate.hosts.joined(separator: ", ")) from \(settings.directoryURL)")
        do {
            let issued = try await ordering.order(certificate)
            let facts = CertificateFacts(leaf: issued.leaf)
            record.describe(facts)
            record.lastError = nil
            record.lastErrorFix = nil
            record.failingSince = nil
            record.failures = 0
            install(issued, into: &record)
            issuedCount += 1
            due[certificate.id] = RenewalSchedule.renewal(notBefore: facts.notBefore, notAfter: facts.notAfter, daysBefore: settings.renewDaysBefore)
            logger.notice(
                "certificate for \(certificate.hosts.joined(separator: ", ")) issued by \(facts.issuer), serial \(facts.serial), valid until \(facts.notAfter)")
        } catch {
            let now = clock.now()
            note(error, for: &record, now: now)
            due[certificate.id] = settings.backoff.nextAttempt(after: error, failures: record.failures, now: now)
            logger.error(
                "certificate for \(certificate.hosts.joined(separator: ", ")): \(error); next attempt \(due[certificate.id]!) (fix: \(record.lastErrorFix ?? ""))"
            )
        }
        record.nextRenewal = due[certificate.id]
        records[certificate.id] = record
        save(record)
        publish()
    }

    private func install(_ certificate: ACMEIssuedCertificate, into record: inout CertificateRecord) {
        do {
            try sink.install(chainPEM: certificate.chainPEM, keyPEM: certificate.privateKeyPEM, hosts: record.hosts)
            record.installedAt = clock.now()
        } catch {
            record.lastError = "the TLS listener refused the certificate: \(error)"
            record.lastErrorFix = "see the error; the certificate is ordered anew on the next attempt"
            record.failingSince = record.failingSince ?? clock.now()
        }
    }

    private func note(_ error: ACMEError, for record: inout CertificateRecord, now: Date) {
        record.failures += 1
        record.failingSince = record.failingSince ?? now
        record.lastError = error.description
        record.lastErrorFix = CertificateAdvice.fix(for: error, directoryURL: settings.directoryURL)
    }

    private func save(_ record: CertificateRecord) {
        var stored = record
        stored.installedAt = nil
        do {
            try storage.save(record: stored, named: "status", for: record.id)
        } catch {
            logger.error("\(error)")
        }
    }

    private func publish() {
        board.publish(currentRecords())
    }

    private func scheduleWake() {
        timer?.cancel()
        guard let next = nextDue() else { return }
        let deadline = min(next, clock.now().addingTimeInterval(Self.longestSleep))
        timer = Task { [clock, wake] in
            do {
                try await clock.sleep(until: deadline)
                wake.yield()
            } catch {}
        }
    }
}
