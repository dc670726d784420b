import ArgumentParser
import Foundation
import LinkLog

/// `linkhost rollup`: rebuild the rollup tables from the hits, for rows the writer never saw (a
/// bulk load with plain SQL). Safe while the server writes (see `RollupBuilder`).
struct RollupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollup",
        abstract: "Pair the app opens with their views again and rebuild the hit log's hourly and daily counts from its hits.",
        discussion: """
            stats reads whole hours and days from these counts, which the server keeps as it writes. Run this after \
            adding rows to the hits table by other means (a bulk load with sqlite3). It works a chunk of days at a time, \
            in constant memory, while the server keeps writing; on a terminal it shows its progress.
            """
    )

    @OptionGroup var location: LogDatabaseOptions

    @Option(name: .customLong("chunk-days"), help: ArgumentHelp("Days rebuilt per transaction.", valueName: "n"))
    var chunkDays = 1

    func validate() throws {
        if chunkDays < 1 { throw ValidationError("--chunk-days \(chunkDays) must be 1 or more") }
    }

    func run() throws {
        let database = try location.database()
        let started = ContinuousClock.now
        let showsProgress = isatty(STDERR_FILENO) == 1
        let counted: Int64
        do {
            let connection = try database.openConnection(readOnly: false)
            counted = try RollupBuilder(connection: connection, chunkDays: chunkDays, countingOn: database).rebuild { progress in
                guard showsProgress else { return }
                let line = "\rrollup: \(progress.chunksDone)/\(progress.totalChunks) chunks, \(progress.hitsCounted) hits counted"
                FileHandle.standardError.write(Data(line.utf8))
            }
        } catch {
            throw CLIFailure.runtime("cannot rebuild the rollups of \(database.displayName): \(error)")
        }
        if showsProgress { FileHandle.standardError.write(Data("\n".utf8)) }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        StandardOutput.write("rollups of \(database.displayName) rebuilt from \(counted) hits in \(String(format: "%.1f", seconds)) s\n")
    }
}
