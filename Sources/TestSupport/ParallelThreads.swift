import Foundation
import Synchronization

/// Runs blocking client loops on real threads, all at once. (Swift concurrency's pool has one
/// thread per core, so blocking socket clients in tasks would run a few at a time.)
public enum ParallelThreads {
    /// Runs `body(index)` on `count` threads and waits for all of them.
    public static func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
    }
}

/// A flag one thread sets and others poll: how a test ends a load it runs on threads of its own.
public final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { stopped.load(ordering: .acquiring) }

    public func set() { stopped.store(true, ordering: .releasing) }
}
