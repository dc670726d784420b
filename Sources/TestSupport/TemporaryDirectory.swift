import Foundation
import Synchronization

/// A fresh folder under the system's temporary directory, removed when the value goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    public init(_ prefix: String = "linkhost-test") throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    /// A folder removed when the test process exits rather than when the value goes away: for a
    /// fixture kept in a `static`, which Swift never releases, so `deinit` would never run and a
    /// `swift test` run outside `scripts/test` (whose scratch folder catches everything) would
    /// leave the folder behind.
    public static func untilExit(_ prefix: String = "linkhost-test") throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix)
        FoldersRemovedAtExit.add(folder.path)
        return folder
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

/// The folders `TemporaryDirectory.untilExit` made, removed by one `atexit` handler.
private enum FoldersRemovedAtExit {
    private static let paths = Mutex<[String]?>(nil)

    static func add(_ path: String) {
        paths.withLock { paths in
            if paths == nil {
                paths = []
                atexit { FoldersRemovedAtExit.removeAll() }
            }
            paths?.append(path)
        }
    }

    private static func removeAll() {
        for path in paths.withLock({ $0.take() }) ?? [] {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
