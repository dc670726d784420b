import ArgumentParser
import Foundation
import LinkLog
import OrderedJSON

/// `linkhost backup --to DIR`: a copy of a SQLite hit log as of one moment and of the key that hashes
/// its invite codes, made while the server writes (`LogBackup`).
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the hit log as of one moment, and the key that hashes its invite codes, into a folder while the server runs.",
        discussion: """
            The server goes on writing meanwhile and never waits for the copy; only its WAL cannot start over \
            until the copy ends, so it grows by what is logged meanwhile. --to is made when missing; a backup \
            already there is never replaced: give each backup a folder of its own (a dated one). To restore, stop \
            the server and copy both files back beside the config's log.database. A PostgreSQL log is backed up \
            with pg_dump plus its key; asked for one, this says the commands.
            """
    )

    @OptionGroup var location: LogDatabaseOptions

    @Option(
        name: .customLong("to"),
        help: ArgumentHelp("The folder the backup goes into (made when missing; never one that holds a backup already).", valueName: "dir"))
    var folder: String

    @Flag(name: .long, help: "Print JSON (one object).")
    var json = false

    func validate() throws {
        if folder.isEmpty { throw ValidationError("--to needs a folder, e.g. --to /var/backups/linkhost/$(date -u +%F)") }
    }

    func run() throws {
        let database = try location.database()
        guard let source = database as? any LogSnapshotSource else { throw CLIFailure.unusableInput(postgreSQLAdvice(database)) }
        let backup: LogBackup
        do {
            backup = try LogBackup.write(from: source, into: folder)
        } catch let error as LogError {
            switch error {
            case .backupInTheWay, .cannotCreateFolder, .backupNotWritten: throw CLIFailure.unusableInput("--to \(folder): \(error)")
            default: throw CLIFailure.unusableInput("cannot back up \(database.displayName): \(error)")
            }
        } catch {
            throw CLIFailure.runtime("cannot back up \(database.displayName): \(error)")
        }
        StandardOutput.write(json ? Self.json(backup, of: source).jsonText(.pretty(indent: 2)) + "\n" : Self.text(backup, of: source))
    }

    /// What to run instead for a PostgreSQL log: `pg_dump` takes a consistent snapshot the same way,
    /// and the key goes with it.
    private func postgreSQLAdvice(_ database: any LogDatabase) -> String {
        // From --db alone the key's place is unknown: it is each instance's log.secretKeyFile.
        let key = location.db == nil ? database.secretKeyFilePath : "KEY"
        let target = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        return """
            backup copies a SQLite log; \(database.displayName) is PostgreSQL. Back it up with pg_dump (one consistent \
            snapshot, while the instances keep writing) and copy the key that hashes its invite codes with it:
              mkdir -p \(target) && pg_dump --format=custom --file \(target)/linkhost.dump '\(database.displayName)'
              install -m 600 \(key) \(target)/linkhost.key
            \(key == "KEY" ? "(KEY: the file log.secretKeyFile of the instances' config names.) " : "")\
            pg_dump asks for the password, or reads PGPASSWORD or ~/.pgpass. See docs/operations.md, "Backing up and restoring".
            """
    }

    private static func text(_ backup: LogBackup, of source: any LogSnapshotSource) -> String {
        let snapshot = backup.snapshot
        let rows = snapshot.lastRowID.map { "\(snapshot.rows) rows (ids up to \($0))" } ?? "no rows"
        var text =
            "backup of \(source.displayName) as of \(UTCCalendar.timestampText(milliseconds: snapshot.takenMilliseconds)), in \(seconds(backup.duration)) s\n"
        text += "  \(backup.databasePath)  \(snapshot.bytes) bytes, \(rows)\n"
        if let keyPath = backup.keyPath {
            text += "  \(keyPath)  \(SecretHasher.keyLength) bytes, mode 0600\n"
        } else {
            text += "  no key: \(source.secretKeyFilePath) does not exist (no invite code was ever hashed)\n"
        }
        text += "the server's WAL was held for \(seconds(snapshot.heldFor)) s"
        if let start = snapshot.walBytesAtStart, let end = snapshot.walBytesAtEnd { text += ", from \(start) to \(end) bytes" }
        return text + "\n"
    }

    private static func json(_ backup: LogBackup, of source: any LogSnapshotSource) -> JSONValue {
        let snapshot = backup.snapshot
        func number(_ value: Int64?) -> JSONValue { value.map { .number(JSONNumber(Int($0))) } ?? .null }
        return .object([
            JSONMember("source", .string(source.displayName)),
            JSONMember("takenAt", .string(UTCCalendar.timestampText(milliseconds: snapshot.takenMilliseconds))),
            JSONMember("seconds", .number(JSONNumber(seconds(backup.duration)))),
            JSONMember("database", .object([JSONMember("path", .string(backup.databasePath)), JSONMember("bytes", number(snapshot.bytes))])),
            JSONMember(
                "key",
                backup.keyPath.map { .object([JSONMember("path", .string($0)), JSONMember("bytes", .number(JSONNumber(SecretHasher.keyLength)))]) } ?? .null),
            JSONMember("rows", number(snapshot.rows)),
            JSONMember("lastRowID", number(snapshot.lastRowID)),
            JSONMember("journalPositions", .object(snapshot.journalPositions.sorted { $0.key < $1.key }.map { JSONMember($0.key, number($0.value)) })),
            JSONMember("walHeldSeconds", .number(JSONNumber(seconds(snapshot.heldFor)))),
            JSONMember("walBytesAtStart", number(snapshot.walBytesAtStart)),
            JSONMember("walBytesAtEnd", number(snapshot.walBytesAtEnd)),
        ])
    }

    /// Seconds to a tenth, or to a thousandth under one.
    private static func seconds(_ duration: Duration) -> Double {
        let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let scale = value < 1 ? 1000.0 : 10.0
        return (value * scale).rounded() / scale
    }
}
