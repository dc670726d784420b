import ACME
import Foundation
import Testing
import X509

/// The order flow against the in-process fake server, on the injected clock: every wait is noted,
/// none is slept.
@Suite("ACME: the order flow")
struct ACMEOrderFlowTests {
    @Test func issuesACertificateForEveryNameAndSavesIt() async throws {
        let harness = try OrderHarness()
        let certificate = try await harness.flow().run()
        #expect(Set(certificate.names) == Set(OrderHarness.names))
        #expect(certificate.leaf.issuer == harness.server.authority.subject)
        #expect(certificate.certificates.count == 2)
        // Saved as one file, read back whole; the order's state and key are gone.
        let stored = try #require(try harness.storage.issuedCertificate("rowhni"))
        #expect(stored.leaf == certificate.leaf)
        #expect(stored.privateKeyPEM == certificate.privateKeyPEM)
        #expect(try harness.storage.orderState("rowhni") == nil)
        #expect(harness.tokens.count == 0, "every token is withdrawn once the order is done")
        #expect(harness.server.count("/new-order") == 1)
        #expect(try harness.storage.accountRecord()?.accountURL == FakeACMEServer.base + "/account/1")
    }

    /// A responder that accepts tokens but serves none: the fake then finds no answer when the
    /// challenge is posted, which shows it checks, and that the default tests publish first.
    struct SilentResponder: ACMEChallengeResponder {
        func publish(token: String, keyAuthorization: String, for identifier: String) async throws {}
        func withdraw(token: String) async {}
    }

    @Test func theAnswerMustBeServedWhenTheChallengeIsPosted() async throws {
        let harness = try OrderHarness()
        let client = try harness.storage.client(directoryURL: FakeACMEServer.directoryURL, transport: harness.server, clock: harness.clock)
        let flow = try ACMEOrderFlow(
            certificateID: "rowhni", settings: harness.settings, client: client, responder: SilentResponder(), storage: harness.storage, clock: harness.clock)
        await #expect {
            try await flow.run()
        } throws: { error in
            guard case .authorizationInvalid(_, let problem) = error as? ACMEError else { return false }
            return problem?.detail?.contains("is missing") == true
        }
    }

    @Test func badNonceIsRetriedWithTheFreshNonce() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(badNonces: 4))
        _ = try await harness.flow().run()
        #expect(harness.server.refusedNonces == 4)
        // Each retry signs with the nonce of the refusal itself: no newNonce request after the first.
        #expect(harness.server.requests.filter { $0.method == .head }.count == 1)
    }

    @Test func badNonceEverySingleTimeGivesUpWithTheProblem() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(badNonces: 1000))
        await #expect {
            try await harness.flow().run()
        } throws: { error in
            (error as? ACMEError)?.problem?.isBadNonce == true
        }
        #expect(harness.server.refusedNonces == 10)
    }

    @Test func rateLimitedCarriesTheServersRetryAfterAndTheOrderResumesLater() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(rateLimitedOrders: 1, rateLimitRetryAfter: "120"))
        let flow = try harness.flow()
        let started = harness.clock.now()
        var caught: ACMEError?
        do { _ = try await flow.run() } catch { caught = error }
        let error = try #require(caught)
        guard case .rateLimited(let problem, _, let retryAfter) = error else {
            Issue.record("expected rateLimited, got \(error)")
            return
        }
        #expect(problem.isRateLimited)
        #expect(retryAfter == started.addingTimeInterval(120))
        // The caller's backoff never comes before the server's time, and grows on its own otherwise.
        let backoff = ACMEBackoff(initial: 60, maximum: 3600)
        #expect(backoff.nextAttempt(after: error, failures: 1, now: started) == started.addingTimeInterval(120))
        #expect(backoff.nextAttempt(after: error, failures: 3, now: started) == started.addingTimeInterval(240))
        #expect(backoff.nextAttempt(after: .transport(url: "x", detail: "down"), failures: 10, now: started) == started.addingTimeInterval(3600))
        // Later, the same flow goes on.
        harness.clock.advance(by: 120)
        let certificate = try await flow.run()
        #expect(Set(certificate.names) == Set(OrderHarness.names))
    }

    @Test func rateLimitedWithoutRetryAfterGetsTheClientsDefault() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(rateLimitedOrders: 1, rateLimitRetryAfter: nil))
        let started = harness.clock.now()
        await #expect {
            try await harness.flow().run()
        } throws: { error in
            (error as? ACMEError)?.retryAfter == started.addingTimeInterval(3600)
        }
    }

    @Test func pollsHonourRetryAfterWithinBounds() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 2, finalizePolls: 2, pollRetryAfter: "7"))
        _ = try await harness.flow().run()
        #expect(!harness.clock.sleeps.isEmpty)
        #expect(harness.clock.sleeps.allSatisfy { $0 == 7 }, "\(harness.clock.sleeps)")

        // An hour's Retry-After is cut to the longest poll interval; a date in the past to the shortest.
        for (header, expected) in [("3600", 60.0), ("Thu, 01 Jan 2015 00:00:00 GMT", 1.0)] {
            let bounded = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 1, pollRetryAfter: header))
            _ = try await bounded.flow().run()
            #expect(bounded.clock.sleeps.first == expected, "Retry-After: \(header) → \(bounded.clock.sleeps)")
        }
    }

    @Test func pollingGivesUpAfterTheTimeoutAndTheOrderStaysSaved() async throws {
        var harness = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 1000))
        harness.settings.timeout = 30
        await #expect {
            try await harness.flow().run()
        } throws: { error in
            if case .timedOut = error as? ACMEError { return true }
            return false
        }
        #expect(try harness.storage.orderState("rowhni")?.phase == .authorizing)
    }

    @Test func anInvalidAuthorizationEndsTheOrderAndTheNextRunOrdersAgain() async throws {
        let harness = try OrderHarness(script: FakeACMEServer.Script(failingNames: ["forums.somethingawful.com"]))
        let flow = try harness.flow()
        var caught: ACMEError?
        do { _ = try await flow.run() } catch { caught = error }
        guard case .authorizationInvalid(let identifier, let problem) = try #require(caught) else {
            Issue.record("expected authorizationInvalid, got \(String(describing: caught))")
            return
        }
        #expect(identifier == "forums.somethingawful.com")
        #expect(problem?.acmeName == "unauthorized")
        #expect(harness.tokens.count == 0, "the order's tokens are withdrawn")
        #expect(try harness.storage.orderState("rowhni") == nil)

        harness.server.updateScript { $0.failingNames = [] }
        _ = try await flow.run()
        #expect(harness.server.count("/new-order") == 2)
    }

    @Test func aRestartMidValidationResumesTheSameOrder() async throws {
        var harness = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 3))
        let first = try harness.flow()
        // Order, then answer the challenges: the server now validates at the next polls.
        while await first.state.publishedTokens.count < OrderHarness.names.count { _ = try await first.step() }
        let saved = try #require(try harness.storage.orderState("rowhni"))
        #expect(saved.phase == .authorizing)
        #expect(saved.orderURL == FakeACMEServer.base + "/order/1")

        // The new process's responder is empty: the resumed flow publishes again before validation.
        let second = try harness.restart()
        #expect(await second.state == saved)
        let certificate = try await second.run()
        #expect(Set(certificate.names) == Set(OrderHarness.names))
        #expect(harness.server.count("/new-order") == 1, "the order in progress is resumed, not ordered again")
        #expect(harness.server.count("/new-account") == 1, "the account URL is kept too")
    }

    @Test func aRestartAfterFinalizeDownloadsWithTheSavedKey() async throws {
        var harness = try OrderHarness(script: FakeACMEServer.Script(finalizePolls: 2))
        let first = try harness.flow()
        while await first.state.phase != .finalizing { _ = try await first.step() }
        _ = try await first.step()
        #expect(harness.server.count("/finalize/1") == 1)

        let second = try harness.restart()
        let certificate = try await second.run()
        // ACMEIssuedCertificate checked that the leaf is for the key saved before the CSR was sent.
        #expect(harness.server.count("/finalize/1") == 1, "the order is not finalized twice")
        #expect(harness.server.count("/new-order") == 1)
        #expect(try harness.storage.issuedCertificate("rowhni")?.leaf == certificate.leaf)
    }

    @Test func aSavedOrderForOtherNamesIsDroppedForANewOne() async throws {
        var harness = try OrderHarness(script: FakeACMEServer.Script(processingPolls: 3))
        let first = try harness.flow()
        _ = try await first.step()
        harness.settings.names = ["rowhni.com"]
        let certificate = try await harness.restart().run()
        #expect(certificate.names == ["rowhni.com"])
        #expect(harness.server.count("/new-order") == 2)
    }

    @Test func anRSACertificateKeyWhenAsked() async throws {
        let harness = try OrderHarness(keyType: .rsa2048)
        let certificate = try await harness.flow().run()
        #expect("\(certificate.leaf.publicKey)".contains("RSA"))
        #expect(certificate.privateKeyPEM.contains("RSA PRIVATE KEY"))
    }

    @Test func termsNotAgreedIsTheServersProblem() async throws {
        var harness = try OrderHarness()
        harness.settings.termsOfServiceAgreed = false
        await #expect {
            try await harness.flow().run()
        } throws: { error in
            (error as? ACMEError)?.problem?.acmeName == "userActionRequired"
        }
    }
}
