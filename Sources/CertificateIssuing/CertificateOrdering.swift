import ACME
import ACMECurl
import CurlHTTP

/// Gets one certificate issued. `ACMECertificateOrdering` is the real one; tests give a fake to
/// drive the manager's schedule and failures in-process.
public protocol CertificateOrdering: Sendable {
    func order(_ certificate: ManagedCertificate) async throws(ACMEError) -> ACMEIssuedCertificate
}

/// Orders through `ACMEOrderFlow` over libcurl, with the account and orders in the storage, so an
/// order in progress when the process stopped is resumed from its URL.
public struct ACMECertificateOrdering: CertificateOrdering {
    let settings: CertificateIssuingSettings
    let storage: ACMEStorage
    let responder: any ACMEChallengeResponder
    let transport: any ACMETransport
    let clock: any ACMEClock

    public init(
        settings: CertificateIssuingSettings, storage: ACMEStorage, responder: any ACMEChallengeResponder, transport: (any ACMETransport)? = nil,
        clock: any ACMEClock = ACMESystemClock()
    ) {
        self.settings = settings
        self.storage = storage
        self.responder = responder
        self.transport =
            transport
            ?? CurlACMETransport(configuration: CurlHTTPConfiguration(caCertificateFile: settings.caCertificateFile, connectTimeout: .seconds(10)))
        self.clock = clock
    }

    public func order(_ certificate: ManagedCertificate) async throws(ACMEError) -> ACMEIssuedCertificate {
        let order = ACMEOrderSettings(
            names: certificate.hosts, email: settings.email, termsOfServiceAgreed: settings.termsOfServiceAgreed, keyType: settings.keyType,
            pollInterval: settings.pollInterval, timeout: settings.orderTimeout)
        let client = try storage.client(directoryURL: settings.directoryURL, transport: transport, clock: clock)
        do {
            return try await ACMEOrderFlow(certificateID: certificate.id, settings: order, client: client, responder: responder, storage: storage, clock: clock)
                .run()
        } catch let error where error.problem?.acmeName == "accountDoesNotExist" {
            // The CA no longer knows the stored account (a test CA restarted, an account
            // deactivated): register the key again, and order anew if the order went with it.
            await client.useAccount(nil)
            return try await ACMEOrderFlow(certificateID: certificate.id, settings: order, client: client, responder: responder, storage: storage, clock: clock)
                .run()
        }
    }
}
