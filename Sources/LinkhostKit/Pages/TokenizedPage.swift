import HTTPServing

/// A fallback page made once with a marker wherever its view token goes, and cut there: each view
/// gets the same bytes with its own token placed in, without routing or filling the page again.
///
/// The marker is ASCII letters and digits only, so HTML escaping and percent-encoding (a token sits
/// inside an encoded install referrer, and inside an `intent://` link's encoded fallback) leave it
/// as it is, and a token (URL-safe base64) can stand where it stood without encoding. Its random
/// part is drawn per process and never leaves it, so no request can put a marker of its own into
/// a page.
struct TokenizedPage: Sendable {
    /// What a page is filled with in place of its token.
    static let marker: String = {
        var marker = "lhview"
        for _ in 0..<2 { marker += String(UInt64.random(in: 0...UInt64.max), radix: 36) }
        return marker + "x"
    }()

    /// The bytes before the first place, between places, and after the last.
    private let pieces: [[UInt8]]
    /// The body's size without its tokens.
    let byteCount: Int

    /// The marker's bytes.
    static let markerBytes = Array(marker.utf8)

    /// Cuts `body`, a page filled with `marker` for its token, at `offsets`, where the marker
    /// stands (`PageSkeleton.fill(_:marking:at:)` finds them while placing the values).
    init(body: [UInt8], markerOffsets offsets: [Int]) {
        let length = Self.markerBytes.count
        var pieces: [[UInt8]] = []
        pieces.reserveCapacity(offsets.count + 1)
        var start = 0
        for offset in offsets {
            pieces.append(Array(body[start..<offset]))
            start = offset + length
        }
        pieces.append(Array(body[start...]))
        self.pieces = pieces
        byteCount = body.count - offsets.count * length
    }

    /// How many places the token goes in.
    var placeCount: Int { pieces.count - 1 }

    /// The page with `token` in every place.
    func body(with token: String) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(byteCount + placeCount * token.utf8.count)
        body.append(contentsOf: pieces[0])
        for piece in pieces.dropFirst() {
            body.append(contentsOf: token.utf8)
            body.append(contentsOf: piece)
        }
        return body
    }
}
