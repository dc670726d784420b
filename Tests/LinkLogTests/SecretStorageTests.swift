import LinkLog
import LinkLogSQLite
import Testing

@Suite("Secrets in the stored log")
struct SecretStorageTests {
    @Test("an invite code passed through the hasher is nowhere in the database, WAL or shared-memory files")
    func secretNeverStoredInClear() throws {
        let fixture = try LogFixture()
        let hasher = try SecretHasher(keyFile: SecretHasher.keyFilePath(forDatabase: fixture.databasePath))
        let secret = "ZQ7K4XW9"
        let writer = try fixture.writer()
        for index in 0..<50 {
            var record = Sample.record(at: Sample.baseTime + Int64(index))
            record.takeParameters(
                from: [("code", secret), ("utm_source", "qr"), ("from", "qrcode")],
                tracked: ["from"], secret: ["code"], hasher: hasher)
            writer.enqueue(record)
        }
        #expect(writer.drain())

        let token = hasher.token(for: secret)
        // While the writer runs, the rows are in the WAL file.
        let whileRunning = fixture.rawDatabaseBytes()
        #expect(whileRunning.containsSequence(Array(token.utf8)), "the search must find what is there")
        #expect(!whileRunning.containsSequence(Array(secret.utf8)))

        writer.stop()
        let afterStop = fixture.rawDatabaseBytes()
        #expect(afterStop.containsSequence(Array(token.utf8)))
        #expect(!afterStop.containsSequence(Array(secret.utf8)))

        let row = try #require(try fixture.reader().rows(LogFilter(limit: 1)).first)
        #expect(row.parametersJSON == "{\"code\":\"\(token)\",\"from\":\"qrcode\"}")
        // The same code gives the same token after a restart (a new hasher on the same key file).
        #expect(try SecretHasher(keyFile: SecretHasher.keyFilePath(forDatabase: fixture.databasePath)).token(for: secret) == token)
    }
}
