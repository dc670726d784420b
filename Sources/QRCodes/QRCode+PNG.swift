import PNGEncoding

extension QRCode {
    /// The code as a PNG file, each module `pixelsPerModule` pixels square, with the quiet zone.
    public func png(pixelsPerModule: Int = 8) throws(PNGEncodingError) -> [UInt8] {
        let scale = max(1, pixelsPerModule)
        let side = sizeWithQuietZone * scale
        guard side <= PNGEncoder.maximumSide else { throw .tooLarge(width: side, height: side) }
        var image = BitonalImage(width: side, height: side)
        for y in 0..<size {
            for x in 0..<size where self[x, y] {
                for row in 0..<scale {
                    for column in 0..<scale {
                        image[(x + Self.quietZone) * scale + column, (y + Self.quietZone) * scale + row] = true
                    }
                }
            }
        }
        return try PNGEncoder.encode(image)
    }
}
