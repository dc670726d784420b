/// A response body produced piece by piece while it is sent, so an export of any size never sits
/// in memory whole: the server asks for the next piece each time the previous one went out.
///
/// `next` may block (it typically reads a database): it is called on the thread that serves the
/// connection, one call at a time, never concurrently — which is why the unchecked `Sendable` is
/// sound. In the event-driven mode a blocking `next` holds that worker thread (and the other
/// connections it serves) meanwhile: for listeners where that is acceptable, like the admin one.
/// It is released (and `finish` called) when the exchange ends, however it ends.
public final class HTTPBodyStream: @unchecked Sendable {
    private let produce: () throws -> [UInt8]?
    private let done: () -> Void
    /// The piece being sent and how much of it went out already.
    private var pending: [UInt8] = []
    private var offset = 0
    private var ended = false

    /// - Parameters:
    ///   - next: the next piece of the body; `nil` at the end. An error ends the response early
    ///     (the client sees a cut chunked body, never a well-formed wrong one).
    ///   - finish: called once when the server is done with the stream (to close a cursor, say).
    public init(next: @escaping () throws -> [UInt8]?, finish: @escaping () -> Void = {}) {
        self.produce = next
        self.done = finish
    }

    /// What one read of the server gets.
    enum ReadResult: Equatable {
        case bytes(Int)
        case end
        case failed
    }

    /// Copies up to `capacity` bytes of the body into `buffer`, asking for new pieces as needed.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> ReadResult {
        while offset >= pending.count {
            if ended { return .end }
            do {
                guard let piece = try produce() else {
                    ended = true
                    return .end
                }
                pending = piece
                offset = 0
            } catch {
                ended = true
                return .failed
            }
        }
        let count = min(capacity, pending.count - offset)
        pending.withUnsafeBytes { source in
            buffer.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return .bytes(count)
    }

    func finish() {
        done()
    }
}
