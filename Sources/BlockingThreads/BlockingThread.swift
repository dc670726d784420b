import Foundation
import Glibc

/// Starts a named pthread for work that blocks — in a database call or on a semaphore — where a
/// Swift task would hold one of the cooperative pool's few threads: the log writer, the SQLite
/// log's checkpoints and each listener's accept loop run on one.
package enum BlockingThread {
    /// Starts `body` on a new joinable thread named `name` (seen in `top -H` and debuggers): the
    /// thread, or why it could not start (`strerror` of `pthread_create`'s result).
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) -> Result<pthread_t, StartFailure> {
        let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
                Thread.current.name = body.name
                body.run()
                return nil
            }, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return .failure(StartFailure(reason: String(cString: strerror(result))))
        }
        return .success(thread)
    }

    /// Why a thread did not start.
    package struct StartFailure: Error {
        package let reason: String
    }

    /// What the new thread runs, passed through `pthread_create`'s one pointer.
    private final class Body: Sendable {
        let name: String
        let run: @Sendable () -> Void

        init(name: String, run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }
}
