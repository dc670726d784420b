import Foundation
import Synchronization

/// Keeps one PostgreSQL cluster made ahead for `TemporaryPostgreSQL`: `initdb` writes a whole data
/// directory, seconds on a loaded machine, and the tests that use clusters run one after another,
/// so the next test's cluster is made in the background while the current test runs. A test that
/// finds none ready (the first, or two at once) makes its own. One made but never taken is removed
/// when the process exits (once its `initdb` has ended, which then delays the exit a moment).
final class ClusterSupply: Sendable {
    /// A made cluster: its folder (the data directory in `data`) and the password of `linkhost`.
    struct Cluster: Sendable {
        let folder: TemporaryDirectory
        let password: String
    }

    /// Makes a cluster in the given folder.
    typealias Make = @Sendable (TemporaryDirectory) throws -> Cluster

    /// A cluster being made on a thread of its own.
    private final class Making: Sendable {
        let folder: TemporaryDirectory
        private let done = DispatchSemaphore(value: 0)
        private let result = Mutex<Result<Cluster, any Error>?>(nil)

        init(_ make: @escaping Make) throws {
            let folder = try TemporaryDirectory("linkhost-postgresql")
            self.folder = folder
            let thread = Thread { [self] in
                let made = Result { try make(folder) }
                result.withLock { $0 = made }
                done.signal()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        func wait() throws -> Cluster {
            finish()
            return try result.withLock { $0! }.get()
        }

        /// Waits until `initdb` has ended.
        func finish() {
            done.wait()
            done.signal()
        }
    }

    private let ahead = Mutex<Making?>(nil)

    static let shared: ClusterSupply = {
        atexit { ClusterSupply.shared.discard() }
        return ClusterSupply()
    }()

    /// The cluster made ahead, or a new one when none is being made; then starts making the next.
    func take(_ make: @escaping Make) throws -> Cluster {
        let made = ahead.withLock { $0.take() }
        let cluster = try made?.wait() ?? make(TemporaryDirectory("linkhost-postgresql"))
        try ahead.withLock { next in
            if next == nil { next = try Making(make) }
        }
        return cluster
    }

    /// Removes the folder of a cluster made ahead and never taken.
    private func discard() {
        guard let left = ahead.withLock({ $0.take() }) else { return }
        left.finish()
        try? FileManager.default.removeItem(atPath: left.folder.path)
    }
}
