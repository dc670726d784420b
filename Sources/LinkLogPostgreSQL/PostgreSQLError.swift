/// A failed libpq call: what we were doing, PostgreSQL's own words, and its SQLSTATE when the server
/// sent one. Built from messages that never hold the password: connection strings are not quoted
/// back, and any text that contains the password is cut out before it is kept
/// (`PostgreSQLConnectionSettings.redacting`).
public struct PostgreSQLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What the program was doing, such as "connecting to postgresql://linkhost@db/hits".
    public let context: String
    /// PostgreSQL's message (libpq's for failures on this side of the connection).
    public let message: String
    /// The five-character SQLSTATE the server reported, when it did (`57P01` for a server shutting down).
    public let sqlState: String?

    /// An error with its parts.
    public init(context: String, message: String, sqlState: String? = nil) {
        self.context = context
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String {
        let text = message.isEmpty ? "unknown failure" : message
        return "\(context): \(text)" + (sqlState.map { " [SQLSTATE \($0)]" } ?? "")
    }
}
