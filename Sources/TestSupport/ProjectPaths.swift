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

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ prefix: String = "linkhost-test") throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// Writes `text` to `name` inside the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    /// Writes raw bytes to `name` inside the folder and returns the file's path.
    @discardableResult
    public func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = path + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }

    /// The paths (relative to the folder) of the files under it whose bytes contain `text`: for
    /// checks that a secret was written nowhere.
    public func filesContaining(_ text: String) throws -> [String] {
        let needle = Data(text.utf8)
        var found: [String] = []
        for case let name as String in FileManager.default.enumerator(atPath: path) ?? NSEnumerator() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            if try Data(contentsOf: URL(fileURLWithPath: path + "/" + name)).range(of: needle) != nil { found.append(name) }
        }
        return found
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
