extension QRCode {
    /// The code as a standalone SVG image: a white square with the quiet zone and one black path,
    /// `pixelsPerModule` times the module count wide when shown at its natural size. It holds
    /// numbers and fixed markup only, never the encoded text, so it can be placed into a page as
    /// it is; it uses no `style` attribute, so a page's `style-src` policy does not block it.
    public func svg(pixelsPerModule: Int = 8) -> String {
        let side = sizeWithQuietZone
        let pixels = side * max(1, pixelsPerModule)
        var path = ""
        path.reserveCapacity(size * size * 2)
        // One rectangle per horizontal run of dark modules: a fraction of the markup of one per module.
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#ffffff"/><path fill="#000000" d="\(path)"/></svg>
            """
    }
}
