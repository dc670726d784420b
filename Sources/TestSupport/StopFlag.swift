import Synchronization

/// A flag one thread sets and others poll: how a test ends a load it runs on threads of its own.
public final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { stopped.load(ordering: .acquiring) }

    public func set() { stopped.store(true, ordering: .releasing) }
}
