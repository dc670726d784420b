extension String {
    /// Calls `body` with the string's UTF-8 bytes, read in place when they are contiguous (as every
    /// native string's are). `withUTF8` needs a `var` copy of the string, a retain and a release
    /// each call, and a new link's page reads its texts this way a few dozen times.
    @inlinable
    public func withContiguousUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return try copy.withUTF8(body)
    }
}
