/// Why an image could not be written as a PNG file.
public enum PNGEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The image is larger than this encoder writes (a QR code is at most a few thousand pixels wide).
    case tooLarge(width: Int, height: Int)
    /// zlib refused to compress the pixels (its return code).
    case compressionFailed(Int32)

    public var description: String {
        switch self {
        case .tooLarge(let width, let height): "a \(width) × \(height) image is larger than \(PNGEncoder.maximumSide) pixels on a side"
        case .compressionFailed(let code): "zlib could not compress the image (code \(code))"
        }
    }
}
