import Foundation

/// One certificate's order, driven step by step from nothing (or from the saved state of an order
/// in progress) to an issued and saved chain (RFC 8555 §7.1: order, authorize, finalize, download).
///
/// Each `step()` makes a few requests and says what comes next; `run()` loops over the steps and
/// waits between polls on the injected clock. The state is saved after every change, so a process
/// that stops mid-order continues from the order's URL when it starts again. What makes an order
/// unable to succeed (an invalid authorization, an invalid order, a chain that is not for the key)
/// ends it: its tokens are withdrawn, its state and key removed, and the error thrown; the next run
/// orders anew. Anything else (no answer, a rate limit) leaves the order saved for a later run, and
/// the error says when (`retryAfter`). One caller drives a flow at a time.
public actor ACMEOrderFlow {
    public nonisolated let certificateID: String
    public nonisolated let settings: ACMEOrderSettings
    private let client: ACMEClient
    private let responder: any ACMEChallengeResponder
    private let storage: ACMEStorage
    private let clock: any ACMEClock
    /// Where the order stands (also what was saved last).
    public private(set) var state: ACMEOrderState
    private var issued: ACMEIssuedCertificate?

    /// Continues the saved order of `certificateID` when it is for the same names, else starts
    /// afresh (dropping a saved order for other names).
    public init(
        certificateID: String, settings: ACMEOrderSettings, client: ACMEClient, responder: any ACMEChallengeResponder, storage: ACMEStorage,
        clock: any ACMEClock = ACMESystemClock()
    ) throws(ACMEError) {
        self.certificateID = certificateID
        self.settings = settings
        self.client = client
        self.responder = responder
        self.storage = storage
        self.clock = clock
        if let saved = try storage.orderState(certificateID), saved.phase != .issued, saved.isFor(settings.names) {
            state = saved
        } else {
            var fresh = ACMEOrderState(names: settings.names)
            if let saved = try storage.orderState(certificateID) {
                fresh.publishedTokens = saved.publishedTokens
                try storage.removeOrder(certificateID)
            }
            state = fresh
        }
    }

    /// Steps until the certificate is issued, waiting between polls; gives up after the settings'
    /// timeout with `timedOut` (the order stays saved).
    public func run() async throws(ACMEError) -> ACMEIssuedCertificate {
        let deadline = clock.now().addingTimeInterval(settings.timeout)
        var steps = 0
        while true {
            if Task.isCancelled { throw ACMEError.cancelled }
            steps += 1
            switch try await step() {
            case .proceed:
                // Every step without a wait moves the phase forward; this only stops a server that
                // keeps sending the order back.
                if steps > 100 { throw ACMEError.timedOut(url: state.orderURL ?? client.directoryURL, detail: "no progress after \(steps) steps") }
            case .wait(let until):
                guard until <= deadline else {
                    throw ACMEError.timedOut(
                        url: state.orderURL ?? client.directoryURL, detail: "the order is still \(state.phase.rawValue) after \(Int(settings.timeout)) s")
                }
                do {
                    try await clock.sleep(until: until)
                } catch {
                    throw ACMEError.cancelled
                }
            case .issued(let certificate):
                return certificate
            }
        }
    }

    /// One step: orders, proves authorizations, finalizes or downloads, as the order's status says.
    public func step() async throws(ACMEError) -> ACMEOrderStep {
        switch state.phase {
        case .ordering:
            return try await placeOrder()
        case .authorizing, .finalizing:
            guard let orderURL = state.orderURL else { return try await restart() }
            let order: ACMEResource<ACMEOrder>
            do {
                order = try await client.order(at: orderURL)
            } catch let error where Self.isGone(error) {
                // Expired or forgotten by the server (a restarted test CA): order again.
                return try await restart()
            }
            return try await advance(order)
        case .downloading:
            return .issued(try await download())
        case .issued:
            if let issued { return .issued(issued) }
            guard let stored = try storage.issuedCertificate(certificateID) else { return try await restart() }
            return .issued(stored)
        }
    }

    // MARK: Phases

    private func placeOrder() async throws(ACMEError) -> ACMEOrderStep {
        try await ensureAccount()
        let order: ACMEResource<ACMEOrder>
        do {
            order = try await client.newOrder(for: settings.names)
        } catch let error where error.problem?.acmeName == "accountDoesNotExist" {
            // The saved account URL is unknown to the server: look the key's account up again.
            await client.useAccount(nil)
            try await ensureAccount()
            order = try await client.newOrder(for: settings.names)
        }
        state.orderURL = order.url
        state.orderedAt = clock.now()
        state.certificateURL = nil
        state.phase = .authorizing
        try save()
        return try await advance(order)
    }

    /// Acts on the order's status (RFC 8555 §7.1.6).
    private func advance(_ order: ACMEResource<ACMEOrder>) async throws(ACMEError) -> ACMEOrderStep {
        switch order.value.status {
        case .pending:
            try setPhase(.authorizing)
            return try await authorize(order)
        case .ready:
            return try await finalize(order)
        case .processing:
            try setPhase(.finalizing)
            return .wait(until: pollTime(order.retryAfter))
        case .valid:
            guard let certificateURL = order.value.certificate else {
                throw ACMEError.unexpectedResponse(url: order.url, status: 200, detail: "a valid order without a certificate URL")
            }
            state.certificateURL = certificateURL
            try setPhase(.downloading)
            return .proceed
        case .invalid:
            throw await end(with: .orderInvalid(url: order.url, problem: order.value.error))
        }
    }

    /// Proves each pending authorization by HTTP-01: publishes the answer, then asks the server to
    /// validate; waits while any is in progress.
    private func authorize(_ order: ACMEResource<ACMEOrder>) async throws(ACMEError) -> ACMEOrderStep {
        var inProgress = false
        var retryAfter: Date?
        for url in order.value.authorizations {
            let authorization = try await client.authorization(at: url)
            let name = authorization.value.identifier.value
            switch authorization.value.status {
            case .valid:
                continue
            case .pending:
                guard let challenge = authorization.value.http01, let token = challenge.token else {
                    throw await end(with: .noHTTP01Challenge(identifier: name))
                }
                switch challenge.status {
                case .valid:
                    continue
                case .invalid:
                    throw await end(with: .authorizationInvalid(identifier: name, problem: challenge.error))
                case .pending, .processing:
                    // Published again on every poll: harmless, and a responder that lost its tokens
                    // in a restart gets them back before the server's next try.
                    try await publish(token: token, for: name)
                    if challenge.status == .pending {
                        let answered = try await client.respondToChallenge(at: challenge.url)
                        if answered.value.status == .invalid {
                            throw await end(with: .authorizationInvalid(identifier: name, problem: answered.value.error))
                        }
                    }
                    inProgress = true
                    retryAfter = [retryAfter, authorization.retryAfter].compactMap { $0 }.min()
                }
            case .invalid, .deactivated, .expired, .revoked:
                let failed = authorization.value.http01?.error ?? authorization.value.challenges.compactMap(\.error).first
                throw await end(
                    with: .authorizationInvalid(
                        identifier: name, problem: failed ?? Self.problem("the authorization is \(authorization.value.status.rawValue)")))
            }
        }
        if inProgress { return .wait(until: pollTime(retryAfter)) }
        // Every authorization is valid, so the order turns ready (§7.1.6): look again at once.
        let again = try await client.order(at: order.url)
        if again.value.status == .pending { return .wait(until: pollTime(again.retryAfter)) }
        return try await advance(again)
    }

    /// Sends the CSR, made with the order's key, which is saved before it leaves.
    private func finalize(_ order: ACMEResource<ACMEOrder>) async throws(ACMEError) -> ACMEOrderStep {
        let key = try storage.orderKey(certificateID, type: settings.keyType)
        let csr = try ACMECertificateRequest.der(names: settings.names, key: key)
        try setPhase(.finalizing)
        let finalized: ACMEResource<ACMEOrder>
        do {
            finalized = try await client.finalize(at: order.value.finalize, csr: csr, orderURL: order.url)
        } catch let error where error.problem?.acmeName == "badCSR" {
            throw await end(with: error)
        }
        switch finalized.value.status {
        case .valid, .invalid: return try await advance(finalized)
        case .pending, .ready, .processing: return .wait(until: pollTime(finalized.retryAfter))
        }
    }

    private func download() async throws(ACMEError) -> ACMEIssuedCertificate {
        guard let url = state.certificateURL else {
            try setPhase(.finalizing)
            throw ACMEError.unexpectedResponse(url: state.orderURL ?? "", status: 0, detail: "no certificate URL saved")
        }
        let chain = try await client.certificateChain(at: url)
        let key = try storage.orderKey(certificateID, type: settings.keyType)
        let certificate: ACMEIssuedCertificate
        do {
            certificate = try ACMEIssuedCertificate(chainPEM: chain, privateKeyPEM: key.pemRepresentation)
            try certificate.check(names: settings.names)
        } catch {
            throw await end(with: error)
        }
        try storage.save(certificate, for: certificateID)
        await withdrawTokens()
        try storage.removeOrder(certificateID)
        state.phase = .issued
        issued = certificate
        return certificate
    }

    // MARK: Helpers

    private func ensureAccount() async throws(ACMEError) {
        guard await client.accountURL == nil else { return }
        let account = try await client.registerAccount(contact: settings.contact, termsOfServiceAgreed: settings.termsOfServiceAgreed)
        try storage.save(ACMEAccountRecord(directoryURL: client.directoryURL, accountURL: account.url))
    }

    private func publish(token: String, for name: String) async throws(ACMEError) {
        do {
            try await responder.publish(token: token, keyAuthorization: client.accountKey.keyAuthorization(for: token), for: name)
        } catch {
            throw ACMEError.challengeResponder(detail: "\(error)")
        }
        if !state.publishedTokens.contains(token) {
            state.publishedTokens.append(token)
            try save()
        }
    }

    private func withdrawTokens() async {
        for token in state.publishedTokens { await responder.withdraw(token: token) }
        state.publishedTokens = []
    }

    /// Ends an order that cannot succeed and returns `error` to throw: tokens withdrawn, state and
    /// key removed, the next step orders anew.
    private func end(with error: ACMEError) async -> ACMEError {
        await abandonOrder()
        return error
    }

    /// Starts over after the server lost the order.
    private func restart() async throws(ACMEError) -> ACMEOrderStep {
        await abandonOrder()
        return .proceed
    }

    private func abandonOrder() async {
        await withdrawTokens()
        try? storage.removeOrder(certificateID)
        state = ACMEOrderState(names: settings.names)
    }

    private func setPhase(_ phase: ACMEOrderState.Phase) throws(ACMEError) {
        guard state.phase != phase else { return }
        state.phase = phase
        try save()
    }

    private func save() throws(ACMEError) {
        try storage.save(state, for: certificateID)
    }

    /// When to poll next: the server's `Retry-After` within the settings' bounds, else the interval.
    private func pollTime(_ retryAfter: Date?) -> Date {
        let now = clock.now()
        let wanted = retryAfter ?? now.addingTimeInterval(settings.pollInterval)
        return min(max(wanted, now.addingTimeInterval(settings.pollInterval)), now.addingTimeInterval(settings.maximumPollInterval))
    }

    private static func isGone(_ error: ACMEError) -> Bool {
        switch error {
        case .server(let problem, _, _): problem.status == 404
        case .unexpectedResponse(_, let status, _): status == 404
        default: false
        }
    }

    private static func problem(_ detail: String) -> ACMEProblem {
        ACMEProblem(type: ACMEProblem.acmeNamespace + "unauthorized", detail: detail)
    }
}

/// What one step of an order left to do.
public enum ACMEOrderStep: Sendable {
    /// Take the next step now.
    case proceed
    /// Take the next step at this time (the server's `Retry-After`, bounded, or the poll interval).
    case wait(until: Date)
    /// The certificate is issued and saved.
    case issued(ACMEIssuedCertificate)
}
