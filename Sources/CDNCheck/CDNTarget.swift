/// One host to check on the CDN, with the AASA file the origin serves for it.
public struct CDNTarget: Sendable {
    /// The host name as the CDN's URL takes it (`rowhni.com`).
    public let host: String
    /// The site serving the host, for the report.
    public let siteID: String
    /// The file's bytes exactly as linkhost serves them for `host`.
    public let servedBytes: [UInt8]

    public init(host: String, siteID: String, servedBytes: [UInt8]) {
        self.host = host
        self.siteID = siteID
        self.servedBytes = servedBytes
    }
}
