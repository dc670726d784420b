extension HitTable {
    /// One column of the hits table: its name, the record field it holds (`field`, found from a key
    /// path once), its SQL type (from the field's Swift type), the schema version that added it,
    /// and how a listing shows it.
    package struct Column: Sendable {
        package let name: String
        package let field: Field
        package let type: SQLType
        /// Whether the column is `NOT NULL` (the field is not optional).
        package let isRequired: Bool
        /// The schema version that added the column.
        package let since: Int
        package let listing: Listing
        /// Whether the request's query parameter of the same name fills it (`utm_*`).
        package let isFromQuery: Bool

        private init(_ name: String, _ field: Field, _ type: SQLType, isRequired: Bool, since: Int, listing: Listing, isFromQuery: Bool = false) {
            self.name = name
            self.field = field
            self.type = type
            self.isRequired = isRequired
            self.since = since
            self.listing = listing
            self.isFromQuery = isFromQuery
        }

        /// A 64-bit integer (`BIGINT`).
        init(_ name: String, _ path: WritableKeyPath<LogRecord, Int64>, since: Int = 1, listing: Listing) {
            self.init(name, .integer(offset: Self.offset(of: path, name)), .bigInteger, isRequired: true, since: since, listing: listing)
        }

        /// A small integer (`INTEGER`): an `Int` field holds a number such as a status.
        init(_ name: String, _ path: WritableKeyPath<LogRecord, Int>, since: Int = 1, listing: Listing) {
            self.init(name, .int(offset: Self.offset(of: path, name)), .integer, isRequired: true, since: since, listing: listing)
        }

        /// Text that every row has.
        init(_ name: String, _ path: WritableKeyPath<LogRecord, String>, since: Int = 1, listing: Listing) {
            self.init(name, .text(offset: Self.offset(of: path, name)), .text, isRequired: true, since: since, listing: listing)
        }

        /// Text that may be NULL; `fromQuery` when the query parameter of the same name fills it.
        init(_ name: String, _ path: WritableKeyPath<LogRecord, String?>, since: Int = 1, listing: Listing, fromQuery: Bool = false) {
            self.init(
                name, .optionalText(offset: Self.offset(of: path, name)), .text, isRequired: false, since: since, listing: listing,
                isFromQuery: fromQuery)
        }

        /// The row's id, which the database hands out.
        init(rowID name: String, listing: Listing) {
            self.init(name, .rowID, .rowID, isRequired: true, since: 1, listing: listing)
        }

        /// Name and value pairs (`LogRecord.trackedParameters`), stored as one JSON object
        /// (`LogRecord.parametersJSON`), NULL when there are none.
        init(_ name: String, _ path: WritableKeyPath<LogRecord, [(name: String, value: String)]>, since: Int = 1, listing: Listing) {
            self.init(name, .parameters(offset: Self.offset(of: path, name)), .text, isRequired: false, since: since, listing: listing)
        }

        /// A column no record fills: the writer keeps it itself after the insert (`OpenCrediting`).
        init(keptByWriter name: String, _ type: SQLType, since: Int) {
            self.init(name, .keptByWriter, type, isRequired: false, since: since, listing: .hidden)
        }

        /// Where the stored property `path` lies in a record. Found once per column, so that reading
        /// and writing a field per row costs a load or a store: a key path applied per value copies
        /// the whole record, on the writer's path.
        private static func offset<Value>(of path: WritableKeyPath<LogRecord, Value>, _ name: String) -> Int {
            guard let offset = MemoryLayout<LogRecord>.offset(of: path) else {
                preconditionFailure("hit column \(name): its key path must name a stored property of LogRecord")
            }
            return offset
        }
    }

    /// Where a column's value is in a `LogRecord`: the field's kind and its byte offset in the record
    /// (`MemoryLayout.offset(of:)`, which Apple documents for reaching a stored property through a
    /// pointer). Plain numbers, so the loops that run per row copy no names and take no references.
    package enum Field: Sendable, Equatable {
        /// The row's id: not on a record.
        case rowID
        /// An `Int64` field.
        case integer(offset: Int)
        /// An `Int` field.
        case int(offset: Int)
        /// A `String` field.
        case text(offset: Int)
        /// A `String?` field.
        case optionalText(offset: Int)
        /// A `[(name: String, value: String)]` field, as a JSON object.
        case parameters(offset: Int)
        /// Not on a record: the writer keeps it.
        case keptByWriter

        /// Whether a record holds the value (and the writer inserts it).
        package var isOnRecord: Bool {
            switch self {
            case .rowID, .keptByWriter: false
            default: true
            }
        }
    }

    /// A column's type, as each engine spells it: SQLite's `INTEGER` holds any integer and makes the
    /// row id with `PRIMARY KEY`; PostgreSQL has `INTEGER` and `BIGINT` and an identity column.
    package enum SQLType: Sendable {
        case rowID
        case integer
        case bigInteger
        case text
    }

    /// How a listing of hits (`HitColumn`) offers a column.
    package enum Listing: Sendable {
        /// Offered, and shown when no columns are chosen; `giveWay` says how early a table narrows it.
        case shown(ResultTable.GiveWay)
        /// Offered, but shown only when asked for by name.
        case onRequest(ResultTable.GiveWay)
        /// A timestamp, offered twice: as readable UTC text under `readableAs` (first), and as its
        /// number under the column's name; neither is ever narrowed.
        case timestamp(readableAs: String)
        /// Not offered.
        case hidden
    }

    /// An index of the hits table: its columns, and for a partial index the condition a row must meet.
    package struct Index: Sendable {
        package let name: String
        package let columns: [String]
        package let condition: String?
        /// Whether the SQLite log has it; PostgreSQL has every index.
        package let inSQLite: Bool

        init(_ name: String, on columns: [String], where condition: String? = nil, inSQLite: Bool = true) {
            self.name = name
            self.columns = columns
            self.condition = condition
            self.inSQLite = inSQLite
        }

        /// The `CREATE INDEX` statement, which both engines read alike.
        package var createSQL: String {
            "CREATE INDEX \(name) ON \(HitTable.name) (\(columns.joined(separator: ", ")))" + (condition.map { " WHERE \($0)" } ?? "")
        }
    }
}
