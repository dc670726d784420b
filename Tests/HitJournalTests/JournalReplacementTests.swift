import Foundation
import Glibc
import HitJournal
import Testing

/// A journal file deleted, truncated or displaced under a running journal: on real files in a
/// temporary folder (the point is what the file system does), each step driven by the test.
@Suite("Hit journal: a lost file made anew")
struct JournalReplacementTests {
    /// A folder of its own, removed when the test ends.
    final class Folder {
        let path = NSTemporaryDirectory() + "/journal-replacement-\(UUID().uuidString)"
        var journalPath: String { path + "/hits.hits-journal" }

        init() throws {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }

        deinit {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    static let size: UInt64 = 4096 + 256 * 1024

    /// The numbers of the records a reader gets from `journal`, all of them.
    static func numbers(_ journal: HitJournal) -> [Int] {
        var reader = JournalReader(journal)
        return HitJournalTests.readAll(&reader).0.map { entry in
            let text = String(decoding: entry.0, as: UTF8.self)
            return Int(text.split(separator: " ")[1])!
        }
    }

    @Test("a deleted journal is made anew at its path with every record it held, and a restart finds them all")
    func deletedFileIsReplaced() throws {
        let folder = try Folder()
        let journal = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        for number in 0..<10 { HitJournalTests.append(journal, number) }
        try FileManager.default.removeItem(atPath: folder.journalPath)
        #expect(journal.status.fileProblem == "the file was deleted while in use")
        journal.replaceIfLost()
        #expect(FileManager.default.fileExists(atPath: folder.journalPath))
        #expect(!FileManager.default.fileExists(atPath: folder.journalPath + ".new"))
        let status = journal.status
        #expect(status.fileProblem == nil)
        #expect(status.replacements == 1)
        #expect(status.lastReplacement?.hasPrefix("the file was deleted while in use; a new file was made") == true)
        for number in 10..<13 { HitJournalTests.append(journal, number) }
        #expect(Self.numbers(journal) == Array(0..<13))
        let identifier = journal.identifier
        journal.close()
        let reopened = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        #expect(reopened.identifier == identifier, "the same journal: the database's position under its id still holds")
        #expect(reopened.recovery.records == 13)
        #expect(Self.numbers(reopened) == Array(0..<13))
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.journalPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((attributes[.size] as? UInt64) == Self.size)
    }

    @Test("a truncated journal loses the records in the part cut off and no more; the new file holds the rest")
    func truncatedFileIsReplaced() throws {
        let folder = try Folder()
        let journal = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        for number in 0..<10 { HitJournalTests.append(journal, number) }
        // Three records of 96 bytes (a 48-byte header and 40 bytes, aligned) after the header page.
        #expect(truncate(folder.journalPath, 4096 + 3 * 96) == 0)
        for number in 10..<13 { HitJournalTests.append(journal, number) }
        #expect(journal.status.fileProblem?.hasPrefix("the file was truncated while in use") == true)
        journal.replaceIfLost()
        #expect(journal.status.fileProblem == nil)
        #expect(journal.status.replacements == 1)
        #expect(journal.status.lastReplacement?.hasSuffix(", 672 bytes lost in 1 stretch") == true, "records 3 to 9, 96 bytes each")
        for number in 13..<15 { HitJournalTests.append(journal, number) }
        #expect(Self.numbers(journal) == [0, 1, 2, 10, 11, 12, 13, 14])
        journal.close()
        let reopened = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        #expect(Self.numbers(reopened) == [0, 1, 2, 10, 11, 12, 13, 14])
        #expect(reopened.recovery.skippedStretches == 0, "the stretch the truncation cut is padding in the new file")
    }

    @Test("another file moved to the journal's path is left alone; the journal says so and writes on into its open file")
    func displacedFileIsLeftAlone() throws {
        let folder = try Folder()
        let journal = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        for number in 0..<3 { HitJournalTests.append(journal, number) }
        try FileManager.default.moveItem(atPath: folder.journalPath, toPath: folder.path + "/moved-away")
        let theirs = Data("somebody's file".utf8)
        try theirs.write(to: URL(fileURLWithPath: folder.journalPath))
        journal.replaceIfLost()
        #expect(journal.status.fileProblem == "another file took its place")
        #expect(journal.status.replacements == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder.journalPath)) == theirs)
        HitJournalTests.append(journal, 3)
        #expect(Self.numbers(journal) == [0, 1, 2, 3])
    }

    @Test("a new file that cannot be made is reported and tried again at the next interval")
    func replacementRetried() throws {
        let folder = try Folder()
        let journal = try HitJournal(path: folder.journalPath, sizeBytes: Self.size)
        HitJournalTests.append(journal, 0)
        // The folder itself gone: no new file can be made in it.
        try FileManager.default.removeItem(atPath: folder.path)
        journal.replaceIfLost()
        let problem = try #require(journal.status.fileProblem)
        #expect(problem.hasPrefix("the file was deleted while in use; making a new one failed:"))
        #expect(problem.contains(folder.journalPath + ".new"))
        #expect(journal.status.replacements == 0)
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        journal.replaceIfLost()
        #expect(journal.status.fileProblem == nil)
        #expect(journal.status.replacements == 1)
        #expect(Self.numbers(journal) == [0])
    }

    @Test("records appended from four threads while the file is deleted and made anew: each one once, in the new file")
    func appendsDuringReplacement() throws {
        let folder = try Folder()
        let journal = try HitJournal(path: folder.journalPath, sizeBytes: 4096 + 4 * 1024 * 1024)
        let perThread = 2_000
        let started = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        for thread in 0..<4 {
            DispatchQueue.global().async(group: group) {
                started.signal()
                for index in 0..<perThread { HitJournalTests.append(journal, thread * perThread + index) }
            }
        }
        for _ in 0..<4 { started.wait() }
        // Replaced while the threads append (they are started; most of their records are still to come).
        try FileManager.default.removeItem(atPath: folder.journalPath)
        journal.replaceIfLost()
        group.wait()
        #expect(journal.status.replacements == 1)
        #expect(journal.status.droppedFull == 0)
        #expect(Self.numbers(journal).sorted() == Array(0..<(4 * perThread)))
        journal.close()
        let reopened = try HitJournal(path: folder.journalPath, sizeBytes: 4096 + 4 * 1024 * 1024)
        #expect(reopened.recovery.skippedStretches == 0)
        #expect(Self.numbers(reopened).sorted() == Array(0..<(4 * perThread)))
    }
}
