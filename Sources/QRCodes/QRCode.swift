/// A QR code symbol: a square of dark and light modules, without its quiet zone.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (21 for version 1, four more per version, up to 177).
    public let size: Int
    /// Row by row, top to bottom; `true` is a dark module.
    public let modules: [Bool]
    /// The light margin readers need around the symbol, in modules (the standard's minimum).
    public static let quietZone = 4

    /// A symbol from its modules; `modules.count` must be `size * size`.
    public init(size: Int, modules: [Bool]) {
        precondition(size > 0 && modules.count == size * size, "a QR code has size × size modules")
        self.size = size
        self.modules = modules
    }

    /// The symbol for `text` (UTF-8, in the segment modes that make it smallest), made by libqrencode.
    public init(encoding text: String, correction: QRErrorCorrection = .medium) throws(QRCodeError) {
        self = try QRCodeEncoder.encode(text, correction: correction)
    }

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) it is light.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Modules per side including the quiet zone on both sides.
    public var sizeWithQuietZone: Int { size + 2 * Self.quietZone }
}
