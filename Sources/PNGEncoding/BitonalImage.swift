/// A black-and-white picture, one bit per pixel: what a QR code becomes before it is written as a
/// PNG file.
public struct BitonalImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// Row by row, top to bottom; `true` is black.
    public private(set) var pixels: [Bool]

    /// A white image of the given size (at least 1 × 1).
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        pixels = [Bool](repeating: false, count: self.width * self.height)
    }

    /// Whether the pixel at column `x`, row `y` is black.
    public subscript(x: Int, y: Int) -> Bool {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
