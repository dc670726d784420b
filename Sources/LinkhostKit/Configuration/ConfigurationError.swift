import OrderedJSON

/// One thing wrong with a config file: where (JSON path), what, and how to fix it.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    public let path: JSONPath
    public let problem: String
    public let fix: String
    /// A stable code: `LH0xx` for the agreement between the AASA file and the link rules,
    /// `config` for everything else.
    public let code: String

    public init(path: JSONPath, problem: String, fix: String, code: String = "config") {
        self.path = path
        self.problem = problem
        self.fix = fix
        self.code = code
    }

    public var description: String { "\(path): \(problem). Fix: \(fix)" }
}

/// Why a configuration cannot be used. Lists every problem found, not just the first, so one edit
/// round fixes them all.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The file the configuration came from (or a description such as "<inline>").
    public let source: String
    public let problems: [ConfigurationProblem]

    public init(source: String, problems: [ConfigurationProblem]) {
        self.source = source
        self.problems = problems
    }

    public var description: String {
        let heading = problems.count == 1 ? "\(source): 1 problem" : "\(source): \(problems.count) problems"
        return ([heading] + problems.map { "  - \($0)" }).joined(separator: "\n")
    }
}

/// Collects problems while a configuration is read, so reading goes on past the first one.
final class ConfigurationProblems {
    private(set) var items: [ConfigurationProblem] = []

    func add(_ path: JSONPath, _ problem: String, fix: String, code: String = "config") {
        items.append(ConfigurationProblem(path: path, problem: problem, fix: fix, code: code))
    }

    func add(_ problem: ConfigurationProblem) {
        items.append(problem)
    }

    var isEmpty: Bool { items.isEmpty }
}
