import Testing

@testable import LinkLog

/// A record's journal form: what the writer reads back after a restart is the record it was given.
struct LogRecordJournalTests {
    private static func roundTrip(_ record: LogRecord) -> LogRecord? {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: record.journalSize, alignment: 8)
        defer { bytes.deallocate() }
        record.encodeForJournal(into: bytes)
        return LogRecord(journalPayload: UnsafeRawBufferPointer(bytes))
    }

    @Test("every field comes back as it went in: texts, nil and empty ones, numbers, parameters in order")
    func everyField() throws {
        var record = Sample.record(
            utmSource: "news létter", utmCampaign: "", parameters: [("invite", "ABC123"), ("ref", "émoji 🙂"), ("ref", "")],
            userAgent: "Mozilla/5.0 (iPhone)", clientClass: "ios-safari", clientAddress: "203.0.113.0", event: "open", secretToken: "h:1f2e")
        record.utmTerm = String(repeating: "t", count: 300)
        record.referrer = "https://example.com/?a=1&b=2"
        record.query = "threadid=456"
        record.viewToken = "v1"
        record.status = 404
        record.durationMicroseconds = -1
        let back = try #require(Self.roundTrip(record))
        #expect("\(back)" == "\(record)")

        let sparse = Sample.record(site: nil, rule: nil)
        let sparseBack = try #require(Self.roundTrip(sparse))
        #expect("\(sparseBack)" == "\(sparse)")
        #expect(sparseBack.siteID == nil)
        #expect(sparseBack.utmSource == nil)
    }

    @Test("bytes that do not hold one whole record decode to nothing, never to a partial record")
    func partialBytes() throws {
        let record = Sample.record(parameters: [("invite", "ABC123")], userAgent: "curl/8")
        let size = record.journalSize
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 8)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0)
        record.encodeForJournal(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<size]))
        for cut in [0, 1, 9, size / 2, size - 1] {
            #expect(LogRecord(journalPayload: UnsafeRawBufferPointer(rebasing: bytes[0..<cut])) == nil, "cut at \(cut)")
        }
        #expect(LogRecord(journalPayload: UnsafeRawBufferPointer(bytes)) == nil, "one byte too many")
    }
}
