import QRCodes

/// Inline SVG QR codes for desktop pages, made once per link and kept: a page view costs a cache
/// lookup, not an encoding. Bounded by entries and bytes (a code is a few kilobytes of path data);
/// links too long for a QR code are remembered as such too, so they are not tried again.
final class QRCodeImages: Sendable {
    private let cache: BoundedCache<String, String?>

    /// Links longer than this get no code: far past what a phone camera reads comfortably, and they
    /// would only fill the cache.
    static let maximumLinkLength = 1024

    init(capacity: Int = 2048, byteLimit: Int = 8 * 1024 * 1024) {
        cache = BoundedCache(capacity: capacity, costLimit: byteLimit) { ($0?.utf8.count ?? 0) + 64 }
    }

    /// The SVG of the code for `link`, or `nil` when it is too long for one; kept for the next view
    /// of the same link unless `keep` is false (a link carrying one view's token is never asked again).
    func svg(for link: String, keep: Bool = true) -> String? {
        guard link.utf8.count <= Self.maximumLinkLength else { return nil }
        if keep, let known = cache.value(for: link) { return known }
        let made = (try? QRCode(encoding: link, correction: .medium))?.svg()
        if keep { cache.store(made, for: link) }
        return made
    }

    /// Codes held now, for tests.
    var count: Int { cache.count }
}
