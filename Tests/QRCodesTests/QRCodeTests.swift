import Foundation
import PNGEncoding
import QRCodes
import Synchronization
import TestSupport
import Testing

/// QR codes made by libqrencode, drawn by our SVG, PNG and terminal writers, read back by ZBar.
@Suite("QR codes", .ownThread, .enabled(if: !QRScanner.mayBeSkipped, "zbarimg is not installed (apt-get install zbar-tools)"))
struct QRCodeTests {
    static let texts = [
        "https://rowhni.com/addfriend?code=ABC123&from=qrcode",
        "https://rowhni.com/addfriend?code=ABC123&from=qrcode&utm_source=newsletter&utm_medium=e-mail&utm_campaign=Fr%C3%BChlingsfest",
        "https://www.familymoviesapp.com/familymember/J%C3%BCrgen/?from=qrcode",
        // Text that is not a URL, with characters outside ASCII in UTF-8 (byte mode).
        "Grüße aus Köln — Einladung für Zoë",
        // Digits and capitals only: the encoder picks its shorter numeric and alphanumeric modes.
        "0123456789012345678901234567890123456789",
        "HTTPS://ROWHNI.COM/ADDFRIEND?CODE=ABC123",
        // A long link: a high version, with many alignment patterns.
        "https://forums.somethingawful.com/showthread.php?threadid=3837546&pagenumber=2&userid=7&utm_campaign="
            + String(repeating: "x", count: 600),
    ]

    @Test(arguments: texts)
    func aPNGReadsBackAsItsText(text: String) throws {
        let code = try QRCode(encoding: text)
        #expect(try decode(png: try code.png()) == [text])
    }

    @Test(arguments: QRErrorCorrection.allCases)
    func everyErrorCorrectionLevelReadsBack(correction: QRErrorCorrection) throws {
        let text = Self.texts[1]
        let code = try QRCode(encoding: text, correction: correction)
        #expect(try decode(png: try code.png(pixelsPerModule: 3)) == [text])
    }

    @Test func moreCorrectionMakesALargerCode() throws {
        let sizes = try QRErrorCorrection.allCases.map { try QRCode(encoding: Self.texts[1], correction: $0).size }
        #expect(sizes == sizes.sorted())
        #expect(sizes.first! < sizes.last!)
    }

    /// The SVG's path, read back into modules, is the code; drawn as a PNG it scans as the text.
    @Test(arguments: [texts[0], texts[3], texts[6]])
    func theSVGDrawsExactlyTheCodesModules(text: String) throws {
        let code = try QRCode(encoding: text)
        let svg = code.svg()
        let side = code.sizeWithQuietZone
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(side * 8)\" height=\"\(side * 8)\" viewBox=\"0 0 \(side) \(side)\""))
        #expect(!svg.contains("style"), "a page's style-src policy would block it")
        let drawn = try QRDrawingReader.modules(ofSVG: svg, side: side)
        #expect(drawn == Self.modules(of: code))
        #expect(try QRScanner.decode(modules: drawn, side: side) == [text])
    }

    /// The terminal drawing, read back two rows per line, is the code with its quiet zone, with
    /// colours and without.
    @Test(arguments: [true, false])
    func theTerminalDrawingDrawsExactlyTheCodesModules(colours: Bool) throws {
        let text = Self.texts[1]
        let code = try QRCode(encoding: text)
        let drawing = code.terminalText(colours: colours)
        #expect(drawing.contains("\u{1B}[") == colours)
        let (drawn, side) = try QRDrawingReader.modules(ofTerminalDrawing: drawing)
        #expect(side == code.sizeWithQuietZone)
        #expect(drawn == Self.modules(of: code))
        #expect(try QRScanner.decode(modules: drawn, side: side) == [text])
    }

    /// Python's zlib, not ours, checks the file: signature, chunk order and CRCs, the header's
    /// fields, and that the pixel data inflates to one filter byte plus packed bits per row.
    @Test func aPNGIsWellFormed() throws {
        let code = try QRCode(encoding: Self.texts[0])
        let folder = try TemporaryDirectory("linkhost-qr")
        let file = try folder.write("code.png", bytes: try code.png(pixelsPerModule: 5))
        let side = code.sizeWithQuietZone * 5
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], "rb").read()
            assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "signature"
            pos, kinds, idat = 8, [], b""
            while pos < len(data):
                length, kind = struct.unpack(">I4s", data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
                assert crc == zlib.crc32(kind + body), "CRC of " + kind.decode()
                kinds.append(kind.decode())
                if kind == b"IHDR":
                    width, height, depth, colour, method, filtering, interlace = struct.unpack(">IIBBBBB", body)
                if kind == b"IDAT":
                    idat += body
                pos += 12 + length
            assert kinds == ["IHDR", "IDAT", "IEND"], kinds
            raw = zlib.decompress(idat)
            assert len(raw) == height * (1 + (width + 7) // 8), len(raw)
            print(width, height, depth, colour, interlace)
            """
        let result = try ChildProcess.run("python3", ["-c", script, file])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "\(side) \(side) 1 0 0\n")
    }

    @Test func textNoCodeCanHoldIsRefusedWithTheReason() {
        #expect(throws: QRCodeError.tooLong(bytes: 3000, correction: .medium)) { try QRCode(encoding: String(repeating: "a", count: 3000)) }
        #expect(throws: QRCodeError.empty) { try QRCode(encoding: "") }
        #expect(throws: QRCodeError.containsNUL) { try QRCode(encoding: "a\u{0}b") }
        #expect(throws: PNGEncodingError.tooLarge(width: 20_000, height: 1)) { try PNGEncoder.encode(BitonalImage(width: 20_000, height: 1)) }
    }

    @Test func codesFromManyThreadsAtOnceAreTheSame() throws {
        let text = Self.texts[1]
        let expected = try QRCode(encoding: text)
        let mismatches = Mutex(0)
        ParallelThreads.run(8) { _ in
            for _ in 0..<50 where (try? QRCode(encoding: text)) != expected {
                mismatches.withLock { $0 += 1 }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
    }

    // MARK: helpers

    private func decode(png: [UInt8]) throws -> [String] {
        try QRScanner.decode(png: png)
    }

    /// The code's modules with the quiet zone, row by row.
    static func modules(of code: QRCode) -> [Bool] {
        let side = code.sizeWithQuietZone
        return (0..<side * side).map { code[$0 % side - QRCode.quietZone, $0 / side - QRCode.quietZone] }
    }
}
