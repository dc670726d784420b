import LinkLog
import LinkLogDatabases
import OrderedJSON

/// Reads the `log` object: whether hits are logged, where, and what is kept.
struct LogSectionParser {
    static let allowedKeys = [
        "enabled", "database", "secretKeyFile", "spoolFile", "clientAddress", "retentionDays", "trackedParameters", "journal",
        // Refused below with what replaced them, rather than as unknown keys.
        "queueCapacity", "fullQueueWaitMilliseconds",
    ]
    static let journalKeys = ["path", "sizeBytes", "syncIntervalMs"]

    let problems: ConfigurationProblems
    let paths: PathResolver

    func read(_ root: ConfigObjectReader) -> LogSettings {
        var settings = LogSettings(
            databasePath: paths.resolve(LogSettings.defaultDatabase), secretKeyFile: paths.resolve(LogSettings.defaultSecretKeyFile),
            spoolFile: paths.resolve(LogSettings.defaultSpoolFile))
        guard let reader = root.object("log", what: "the log settings", allowedKeys: Self.allowedKeys) else { return settings }
        settings.enabled = reader.bool("enabled", default: true)
        if let path = reader.string("database", fix: "write the SQLite file's path, e.g. \"data/linkhost.sqlite\", or a postgresql:// URL") {
            if path.isEmpty {
                problems.add(reader.path.appending("database"), "the database path is empty", fix: "write e.g. \"data/linkhost.sqlite\"")
            } else if LogDatabaseLocator.isURL(path) {
                settings.databasePath = path
            } else {
                settings.databasePath = paths.resolve(path)
            }
        }
        if let path = reader.string("secretKeyFile", fix: "write the key file's path, e.g. \"data/linkhost.key\"") {
            if path.isEmpty {
                problems.add(reader.path.appending("secretKeyFile"), "the key file's path is empty", fix: "write e.g. \"data/linkhost.key\"")
            } else {
                settings.secretKeyFile = paths.resolve(path)
            }
        }
        if let path = reader.string("spoolFile", fix: "write the spool file's path, e.g. \"data/linkhost-spool.sqlite\"") {
            if path.isEmpty {
                problems.add(reader.path.appending("spoolFile"), "the spool file's path is empty", fix: "write e.g. \"data/linkhost-spool.sqlite\"")
            } else {
                settings.spoolFile = paths.resolve(path)
            }
        }
        if let policy = reader.string("clientAddress", fix: "use one of \(ClientAddressPolicy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))") {
            if let chosen = ClientAddressPolicy(rawValue: policy) {
                settings.clientAddress = chosen
            } else {
                problems.add(
                    reader.path.appending("clientAddress"), "\"\(policy)\" is not a client-address policy",
                    fix: "use \"truncated\" (IPv4 /24, IPv6 /48) or \"omit\" (store none)")
            }
        }
        settings.retentionDays = reader.integer(
            "retentionDays", in: 0...36_500, default: settings.retentionDays, meaning: "days rows are kept; 0 keeps them all")
        // The in-memory queue these sized is gone: records go into the journal, and no request waits.
        for key in ["queueCapacity", "fullQueueWaitMilliseconds"] where reader.has(key) {
            problems.add(
                reader.path.appending(key), "\(key) no longer exists: records go into the hit journal, and no request waits for room",
                fix: "remove it; size the journal with log.journal.sizeBytes")
        }
        if let journal = reader.object("journal", what: "the hit journal's settings", allowedKeys: Self.journalKeys) {
            if let path = journal.string("path", fix: "write the journal file's path, e.g. \"data/linkhost.sqlite.hits-journal\"") {
                if path.isEmpty {
                    problems.add(journal.path.appending("path"), "the journal's path is empty", fix: "write e.g. \"data/linkhost.sqlite.hits-journal\"")
                } else {
                    settings.journalPath = paths.resolve(path)
                }
            }
            settings.journalSizeBytes = journal.integer(
                "sizeBytes", in: (1 << 20)...(1 << 40), default: settings.journalSizeBytes,
                meaning: "bytes of the journal file (1 GiB holds about an hour at 500 requests a second)")
            settings.journalSyncIntervalMilliseconds = journal.integer(
                "syncIntervalMs", in: 1...1000, default: settings.journalSyncIntervalMilliseconds,
                meaning: "milliseconds between syncs of the journal to disk, at most what a power loss costs")
        }
        if let names = reader.strings("trackedParameters", fix: "list query parameter names to keep, e.g. [\"from\"]") {
            settings.trackedParameters = []
            for entry in names {
                if entry.text.isEmpty || entry.text.hasPrefix("utm_") {
                    problems.add(
                        entry.path, entry.text.isEmpty ? "the name is empty" : "\"\(entry.text)\" is a UTM parameter, which has its own column already",
                        fix: "remove it")
                } else {
                    settings.trackedParameters.append(entry.text)
                }
            }
        }
        return settings
    }
}
