import Foundation
import PNGEncoding

/// Reads QR codes out of image files with ZBar's `zbarimg` (Debian `zbar-tools`), a decoder that
/// shares no code with the encoder under test, so a passing comparison means a phone would read
/// the same text.
public enum QRScanner {
    /// Whether tests that need `zbarimg` may be skipped: only on a developer machine without it,
    /// never in CI (`CI=true`), where scripts/test installs it.
    public static var mayBeSkipped: Bool {
        ProcessInfo.processInfo.environment["CI"] != "true" && Tool.find("zbarimg") == nil
    }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The text of every code found in the image at `path`, in the order zbarimg reports them;
    /// empty when it finds none.
    public static func decode(imageAt path: String) throws -> [String] {
        // --raw prints each code's text alone; -q leaves out the statistics line.
        let result = try ChildProcess.run("zbarimg", ["-q", "--raw", path], timeoutSeconds: 120)
        // zbarimg exits 4 when the image holds no code; anything else but 0 is a failure to read it.
        if result.status == 4 { return [] }
        guard result.status == 0 else { throw Failure(description: "zbarimg \(path) exited \(result.status): \(result.error)") }
        return result.output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The text of the codes in a drawing's modules (see `QRDrawingReader`), drawn `scale` pixels
    /// per module as a PNG file and read by zbarimg.
    public static func decode(modules: [Bool], side: Int, scale: Int = 6) throws -> [String] {
        var image = BitonalImage(width: side * scale, height: side * scale)
        for y in 0..<side * scale {
            for x in 0..<side * scale { image[x, y] = modules[(y / scale) * side + x / scale] }
        }
        return try decode(png: try PNGEncoder.encode(image))
    }

    /// The text of the codes in a PNG file's bytes.
    public static func decode(png: [UInt8]) throws -> [String] {
        let folder = try TemporaryDirectory("linkhost-qr")
        return try decode(imageAt: try folder.write("code.png", bytes: png))
    }
}
