import Foundation

/// Where the repository and the built binaries are, found from this file's own path and the
/// running test bundle, so tests work from any current directory.
public enum ProjectPaths {
    /// The repository root (the folder holding Package.swift).
    public static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The shipped config.json.
    public static var shippedConfig: String { root + "/config.json" }

    /// The `linkhost` executable next to the running test bundle (built by `swift build`).
    public static var linkhostBinary: String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            let candidate = url.deletingLastPathComponent().appendingPathComponent("linkhost")
            if FileManager.default.isExecutableFile(atPath: candidate.path), !candidate.hasDirectoryPath {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return candidate.path
                }
            }
            url.deleteLastPathComponent()
        }
        return root + "/.build/debug/linkhost"
    }
}
