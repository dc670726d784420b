import Foundation

/// A resource as the server returned it, with what the response said around it.
public struct ACMEResource<Value: Sendable>: Sendable {
    public var value: Value
    /// The resource's URL: the `Location` of a created resource, else the URL requested.
    public var url: String
    /// The server's `Retry-After`, as a time: when to poll again.
    public var retryAfter: Date?

    public init(value: Value, url: String, retryAfter: Date? = nil) {
        self.value = value
        self.url = url
        self.retryAfter = retryAfter
    }
}
