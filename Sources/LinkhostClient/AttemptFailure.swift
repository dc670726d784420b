/// One attempt's failure, as the retry loop sees it: the error to throw if it gives up, and
/// whether another attempt could succeed.
struct AttemptFailure: Error, Sendable {
    let error: LinkhostClientError
    let retryable: Bool
}
