import Synchronization

/// The serving set in use, swapped whole by a reload.
///
/// A mutex around one reference: a request holds it only to copy the reference (a retain), so
/// workers barely wait on each other, and a swap is one store — no request ever sees half of one
/// set and half of another.
final class ServingSetSlot: Sendable {
    private let current: Mutex<ServingSet>

    init(_ set: ServingSet) {
        current = Mutex(set)
    }

    /// The set to answer one request from.
    var set: ServingSet { current.withLock { $0 } }

    /// Puts `set` in service and returns the one it replaced (requests that took that one finish
    /// with it).
    @discardableResult
    func replace(with set: ServingSet) -> ServingSet {
        current.withLock { slot in
            let previous = slot
            slot = set
            return previous
        }
    }
}
