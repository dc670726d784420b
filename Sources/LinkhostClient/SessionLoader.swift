import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request through a `URLSession`, cancelled when the calling task is.
///
/// Not `URLSession.data(for:)`: on Linux its cancellation handler cancels the URLSession task
/// synchronously, holding the Swift task's status lock while it waits for the session's queue —
/// and that queue may at that moment be resuming the same task, which needs the lock. Both wait
/// for ever (seen as a hung test run on a loaded machine). Here the cancel is handed to another
/// queue, so the handler returns at once.
enum SessionLoader {
    static func data(for request: URLRequest, session: URLSession) async throws -> (Data, URLResponse) {
        let box = DataTaskBox()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<(Data, URLResponse), any Error>) in
                let task = session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                box.hold(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// The URLSession task of one request, cancelled on another queue (see `SessionLoader`).
final class DataTaskBox: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    func hold(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let alreadyCancelled = cancelled
        lock.unlock()
        if alreadyCancelled { cancelLater() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let held = task != nil
        lock.unlock()
        if held { cancelLater() }
    }

    private func cancelLater() {
        DispatchQueue.global().async {
            self.lock.lock()
            let task = self.task
            self.lock.unlock()
            task?.cancel()
        }
    }
}
