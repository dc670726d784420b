import Foundation

/// The JSON body of `POST /v1/opens`: the URL the app was opened with, when, and how.
struct OpenReport: Encodable, Sendable {
    let url: String
    let openedAt: Date
    let source: OpenSource

    /// The body's bytes, with `openedAt` in ISO 8601 (`2026-11-23T10:00:00Z`) as the server expects.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
