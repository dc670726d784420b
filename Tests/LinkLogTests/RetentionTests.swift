import LinkLog
import LinkLogSQLite
import Testing

@Suite("Retention")
struct RetentionTests {
    static let day: Int64 = 86_400_000

    @Test("rows older than the retention days go at open; newer rows stay")
    func atOpen() throws {
        let fixture = try LogFixture()
        let now = LogRecord.currentTimeMilliseconds()
        try fixture.write([
            Sample.record(at: now - 30 * Self.day, path: "/30d"),
            Sample.record(at: now - 8 * Self.day, path: "/8d"),
            Sample.record(at: now - 6 * Self.day, path: "/6d"),
            Sample.record(at: now - 1000, path: "/now"),
        ])
        #expect(try fixture.reader().count() == 4)

        let writer = try fixture.writer(retentionDays: 7)
        #expect(writer.status.retentionDeletedRows == 2)
        writer.stop()
        #expect(try fixture.reader().rows().map(\.path) == ["/now", "/6d"])
    }

    @Test("retention 0 keeps everything")
    func zeroKeeps() throws {
        let fixture = try LogFixture()
        try fixture.write([Sample.record(at: 1000), Sample.record(at: 2000)])
        let writer = try fixture.writer(retentionDays: 0)
        writer.stop()
        #expect(try fixture.reader().count() == 2)
    }

    @Test("the writer applies retention periodically while running")
    func periodic() throws {
        let fixture = try LogFixture()
        let writer = try fixture.writer(retentionDays: 1, retentionInterval: .milliseconds(50))
        let now = LogRecord.currentTimeMilliseconds()
        writer.enqueue(Sample.record(at: now - 3 * Self.day, path: "/old"))
        writer.enqueue(Sample.record(at: now, path: "/new"))
        #expect(writer.drain())
        // Waits for the deletion rather than timing it: the assertion is that it happens at all (when
        // it falls due is WriterCycleTests' to show).
        #expect(writer.waitForStatus(timeout: .seconds(30)) { $0.retentionDeletedRows >= 1 })
        #expect(try fixture.reader().rows().map(\.path) == ["/new"])
        #expect(writer.stop().retentionDeletedRows == 1)
    }
}
