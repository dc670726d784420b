import Foundation

/// Makes the paths a config file names absolute: relative ones are taken from the config file's
/// folder, so the file means the same whatever folder linkhost is started from.
struct PathResolver {
    let baseDirectory: String

    func resolve(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : (baseDirectory as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }

    /// For paths given on the command line, which are relative to the current directory instead.
    static var currentDirectory: PathResolver { PathResolver(baseDirectory: FileManager.default.currentDirectoryPath) }
}
