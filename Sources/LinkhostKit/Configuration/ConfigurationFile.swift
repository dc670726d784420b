import Foundation
import OrderedJSON

/// Reading a config file: its bytes from disk and its JSON syntax, before any setting is looked at.
enum ConfigurationFile {
    /// The file's bytes, or the one problem every command words alike: which file was tried (as an
    /// absolute path, so a relative one run from another folder says where it looked) and why not.
    static func bytes(at path: String) throws(ConfigurationError) -> [UInt8] {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        guard exists, !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            let reason = !exists ? "no such file" : isFolder.boolValue ? "it is a folder, not a file" : "it cannot be read (check its permissions)"
            let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
            throw ConfigurationError(
                source: path,
                problems: [
                    ConfigurationProblem(
                        path: .root, problem: "cannot open the config file \(absolute): \(reason)",
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
