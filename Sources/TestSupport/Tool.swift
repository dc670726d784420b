import Foundation

/// Finds the programs tests run (curl, openssl, ab, chromium ...) on `PATH`, so no test names a
/// path that only exists on one machine.
public enum Tool {
    public struct NotFound: Error, CustomStringConvertible {
        public let name: String
        public var description: String { "\(name) is not on PATH (scripts/test installs it)" }
    }

    /// The full path of `name`: returned as given when it contains a `/`, else the first
    /// executable of that name on `PATH`.
    public static func path(_ name: String) throws -> String {
        if name.contains("/") { return name }
        if let found = find(name) { return found }
        throw NotFound(name: name)
    }

    /// The first executable called `name` on `PATH`, `nil` when there is none.
    public static func find(_ name: String) -> String? {
        let searchPath = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in searchPath.split(separator: ":") where !folder.isEmpty {
            let candidate = "\(folder)/\(name)"
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate)
            {
                return candidate
            }
        }
        return nil
    }
}
