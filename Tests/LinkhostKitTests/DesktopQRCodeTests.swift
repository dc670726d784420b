import HTTPServing
import OrderedJSON
import TestSupport
import Testing

@testable import LinkhostKit

/// The desktop page's QR code, answered in-process: its link carries `from=qrcode` only when the
/// log tracks `from` (`log.trackedParameters`), as `linkhost link --qr` does. The server once
/// built its pages without the config's tracked parameters, so the marker was always there.
@Suite("The desktop page's QR link")
struct DesktopQRCodeTests {
    static let desktop = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15"

    /// The SVG of the QR code on the desktop page of `/addfriend?code=ABC123` under `tracked`, and
    /// the view token the page carries (on its copy button too).
    static func qrCode(tracked: [String]) throws -> (svg: String, token: String) {
        let configuration = try shippedConfiguration(settings: ["log.trackedParameters": .array(tracked.map { .string($0) })])
        let server = try LinkhostServer(configuration: configuration)
        let response = server.answer(
            HTTPRequest(method: "GET", target: "/addfriend?code=ABC123", headers: ["Host": "rowhni.com", "User-Agent": desktop]))
        #expect(response.status == 200)
        let text = response.bodyText
        let start = try #require(text.range(of: "<svg"))
        let end = try #require(text.range(of: "</svg>", range: start.upperBound..<text.endIndex))
        let token = try #require(ViewTokens.all(in: text).first)
        #expect(Set(ViewTokens.all(in: text)) == [token])
        return (String(text[start.lowerBound..<end.upperBound]), token)
    }

    /// The code carries `from=qrcode` when the log tracks `from`, and the view's token last, so a
    /// phone that scans it and opens the app is paired with this view.
    @Test func theMarkerFollowsTheTrackedParameters() throws {
        let codes = QRCodeImages()
        let plain = try Self.qrCode(tracked: [])
        #expect(plain.svg == (try #require(codes.svg(for: "https://rowhni.com/addfriend?code=ABC123&lh_view=\(plain.token)"))))
        let marked = try Self.qrCode(tracked: ["from"])
        #expect(marked.svg == (try #require(codes.svg(for: "https://rowhni.com/addfriend?code=ABC123&from=qrcode&lh_view=\(marked.token)"))))
        #expect(plain.token != marked.token)
    }
}
