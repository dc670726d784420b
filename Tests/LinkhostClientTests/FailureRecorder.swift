import Synchronization

/// Collects the errors a background report hands to its `onFailure` handler.
final class FailureRecorder: Sendable {
    private let recorded = Mutex<[any Error]>([])

    func record(_ error: any Error) {
        recorded.withLock { $0.append(error) }
    }

    var errors: [any Error] { recorded.withLock { $0 } }
}
