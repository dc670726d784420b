import Foundation
import OrderedJSON

/// The folder pages are made from (`server.publicDirectory`), as found on disk when the config is
/// read. A missing folder is one problem, not one per language and text that would need it.
struct PublicFolder {
    /// The subfolders pages cannot do without; `static/` is optional (pages then lack their style).
    static let requiredParts = ["templates", "locales"]

    let path: String
    let exists: Bool
    let missingParts: [String]
    /// Languages with a strings file (`locales/<code>.json`); `nil` when there is no `locales/` to
    /// look in, which is reported once as a missing part.
    let languages: [String]?

    init(path: String) {
        self.path = path
        var isDirectory: ObjCBool = false
        exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        missingParts = exists ? Self.requiredParts.filter { !Self.isFolder((path as NSString).appendingPathComponent($0)) } : []
        if exists, !missingParts.contains("locales"),
            let files = try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).appendingPathComponent("locales"))
        {
            languages = files.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        } else {
            languages = nil
        }
    }

    /// What is wrong with the folder, reported at `settingPath` (`server.publicDirectory`); `isDefault`
    /// when the config does not set it, so the message says where the path came from.
    func problems(at settingPath: JSONPath, isDefault: Bool) -> [ConfigurationProblem] {
        let origin = isDefault ? " (the default \"\(ServerSettings.defaults.publicDirectory)\", next to the config file)" : ""
        guard exists else {
            let what = FileManager.default.fileExists(atPath: path) ? "is a file, not a folder" : "does not exist"
            return [
                ConfigurationProblem(
                    path: settingPath,
                    problem: "the public folder \(path)\(origin) \(what); pages need its templates/, locales/ and static/",
                    fix:
                        "copy linkhost's Public folder next to the config file, or set server.publicDirectory to where it is; a relative path is taken from the config file's folder"
                )
            ]
        }
        return missingParts.map { part in
            ConfigurationProblem(
                path: settingPath,
                problem: "the public folder \(path)\(origin) has no \(part)/ folder",
                fix: "copy \(part)/ from linkhost's Public folder into it, or point server.publicDirectory at a complete copy")
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
