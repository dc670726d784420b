import Foundation
import OrderedJSON

/// Reading a config file: its bytes from disk and its JSON syntax, before any setting is looked at.
enum ConfigurationFile {
    static func bytes(at path: String) throws(ConfigurationError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read (check its permissions)" : "no such file"
            throw ConfigurationError(
                source: path,
                problems: [
                    ConfigurationProblem(
                        path: .root, problem: "cannot open the config file: \(reason)",
                        fix: "pass --config PATH to a readable config.json, or run from the folder that holds one")
                ])
        }
        return Array(data)
    }

    static func document(from bytes: [UInt8], source: String) throws(ConfigurationError) -> JSONValue {
        do {
            return try JSONParser().parse(bytes)
        } catch {
            throw ConfigurationError(
                source: source,
                problems: [
                    ConfigurationProblem(
                        path: error.path, problem: "the file is not valid JSON (line \(error.line), column \(error.column)): \(error.message)",
                        fix: "correct the JSON syntax at that line; `python3 -m json.tool \(source)` shows the same spot")
                ])
        }
    }
}
