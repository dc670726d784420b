/// Fills `hits.preview_app` for the fallback pages no person fetched (`ClientClass.notPeople`): the writer
/// notes each such row of a batch with its User-Agent and names the app here, in the batch's
/// transaction, off the request path; a rebuild (`RollupBuilder`) fills the rows logged before the
/// column existed.
package struct PreviewApps {
    /// The rows of a batch to fill: each row's id and its User-Agent.
    package private(set) var rows: [(id: Int64, userAgent: String?)] = []

    package init() {}

    private static let classes = Set(ClientClass.notPeople.map(\.rawValue))

    /// Notes the row `id` when `clientClass` is none of a person's.
    package mutating func note(clientClass: String?, userAgent: String?, id: Int64) {
        guard let clientClass, Self.classes.contains(clientClass) else { return }
        rows.append((id, userAgent))
    }

    /// Sets `preview_app` of the noted rows, one statement per app.
    package func fill(on connection: any LogSQLConnection) throws {
        var byApp: [String: [Int64]] = [:]
        for row in rows { byApp[ClientClassifier.previewApp(row.userAgent) ?? "other", default: []].append(row.id) }
        for (app, ids) in byApp.sorted(by: { $0.key < $1.key }) {
            for start in stride(from: 0, to: ids.count, by: 400) {
                var arguments = SQLArguments(dialect: connection.dialect)
                let name = arguments.add(.text(app))
                let list = ids[start..<min(ids.count, start + 400)].map { arguments.add(.integer($0)) }.joined(separator: ", ")
                try connection.execute("UPDATE hits SET preview_app = \(name) WHERE id IN (\(list))", arguments.values)
            }
        }
    }

    /// Fills the rows of a stretch of the log (`clauses` on its time) that have none yet.
    package static func fillMissing(where clauses: [String], _ arguments: [SQLValue], on connection: any LogSQLConnection) throws {
        var missing = PreviewApps()
        let all = ["kind = 'fallback'", ClientClass.notPersonCondition, "preview_app IS NULL"] + clauses
        try connection.query("SELECT id, client_class, user_agent FROM hits\(SQLCondition.whereClause(all))", arguments) { row in
            if let id = row[0].integer { missing.note(clientClass: row[1].text, userAgent: row[2].text, id: id) }
        }
        try missing.fill(on: connection)
    }
}
