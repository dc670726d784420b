import LinkLog

extension PostgreSQLConnection: LogSQLConnection {
    public var dialect: any SQLDialect { PostgreSQLDialect() }

    public func writeTransaction<Result>(_ body: () throws -> Result) throws -> Result {
        try transaction(body)
    }
}
