import CZlib

/// Writes a `BitonalImage` as a PNG file: one-bit greyscale (the smallest form a PNG reader must
/// accept), no filtering (a QR code's rows gain nothing from it), compressed by zlib's own deflate.
/// The only code that touches zlib.
public enum PNGEncoder {
    /// The largest width or height written; far beyond any QR code, small enough that the sizes
    /// handed to zlib fit its 32-bit lengths.
    public static let maximumSide = 16_384

    private static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The complete PNG file.
    public static func encode(_ image: BitonalImage) throws(PNGEncodingError) -> [UInt8] {
        guard image.width <= maximumSide, image.height <= maximumSide else { throw .tooLarge(width: image.width, height: image.height) }
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        // Bit depth 1, colour type 0 (greyscale), deflate, adaptive filtering, no interlace.
        header += [1, 0, 0, 0, 0]
        var file = signature
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", try compress(scanlines(of: image)), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// Each row as PNG stores it: filter type 0, then the pixels eight to a byte, first pixel in
    /// the high bit; in one-bit greyscale 0 is black and 1 is white.
    private static func scanlines(of image: BitonalImage) -> [UInt8] {
        let rowBytes = (image.width + 7) / 8
        var data = [UInt8](repeating: 0, count: (rowBytes + 1) * image.height)
        for y in 0..<image.height {
            let start = y * (rowBytes + 1)
            for x in 0..<image.width where !image[x, y] {
                data[start + 1 + x / 8] |= 0x80 >> UInt8(x % 8)
            }
            // Bits past the last pixel of a row are padding; white keeps them out of sight.
            for x in image.width..<(rowBytes * 8) {
                data[start + 1 + x / 8] |= 0x80 >> UInt8(x % 8)
            }
        }
        return data
    }

    private static func compress(_ data: [UInt8]) throws(PNGEncodingError) -> [UInt8] {
        var length = compressBound(uLong(data.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { target in
            data.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw .compressionFailed(status) }
        return Array(output[..<Int(length)])
    }

    /// Length, type, data and the CRC-32 of type and data (zlib's).
    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file.appendBigEndian(UInt32(data.count))
        file += typeBytes
        file += data
        // zlib reads a null buffer as "start over", so an empty part (IEND's data) is skipped.
        var checksum = crc32(0, nil, 0)
        for part in [typeBytes, data] where !part.isEmpty {
            checksum = part.withUnsafeBufferPointer { crc32(checksum, $0.baseAddress, uInt($0.count)) }
        }
        file.appendBigEndian(UInt32(truncatingIfNeeded: checksum))
    }
}

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

extension [UInt8] {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
