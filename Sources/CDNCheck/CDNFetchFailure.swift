/// Why the CDN gave no answer at all: no connection, no answer in time, a broken response.
public struct CDNFetchFailure: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
