import Glibc

/// `mkdir -p` with errors that name the part of the path that failed, which is what an operator
/// needs when the log folder cannot be made ("/data/log: Not a directory").
package enum FolderCreator {
    /// Creates the folder that will hold `filePath`, and any missing folders above it.
    package static func createParent(of filePath: String) throws {
        try createFolder(parent(of: filePath))
    }

    /// Creates `path` and any missing folders above it; an existing folder is fine.
    package static func createFolder(_ path: String) throws {
        guard !path.isEmpty, path != "/", path != "." else { return }
        if mkdir(path, 0o755) == 0 { return }
        var failure = errno
        if failure == ENOENT {
            try createFolder(parent(of: path))
            if mkdir(path, 0o755) == 0 { return }
            failure = errno
        }
        if failure == EEXIST {
            var info = stat()
            if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw LogError.cannotCreateFolder(path: path, reason: "a file that is not a folder is in the way")
        }
        throw LogError.cannotCreateFolder(path: path, reason: String(cString: strerror(failure)))
    }

    /// The folder part of a path: "" for a bare file name, "/" for a file at the root.
    package static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }
}
