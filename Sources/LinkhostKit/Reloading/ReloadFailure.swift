/// Why a reload was refused: the message an operator reads (with every config problem and its JSON
/// path), and the problems one by one for the health report.
public struct ReloadFailure: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// The config's problems, each with its JSON path and fix; empty when the failure is not about
    /// one setting (the server is stopping, say).
    public let problems: [ConfigurationProblem]

    public init(_ message: String, problems: [ConfigurationProblem] = []) {
        self.message = message
        self.problems = problems
    }

    /// The loader's error: every problem it found.
    init(_ error: ConfigurationError) {
        self.init("\(error)", problems: error.problems)
    }

    public var description: String { message }
}
