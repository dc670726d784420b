import Foundation
import HTTPServing

/// The files under `<public>/static`, read once at start-up and served from memory under
/// `/static/…` as prepared responses (with a 304 twin for each).
///
/// Serving from a table built at start-up is what keeps requests inside the folder: a request path
/// is only ever a key into the table, so `..`, encoded slashes or symlink tricks have nothing to
/// reach. While building the table, links that resolve outside the folder and hidden files are
/// skipped, and sizes are bounded.
struct StaticFiles: Sendable {
    /// One file ready to serve.
    struct Entry: Sendable {
        let tag: String
        let ok: PreparedResponse
        let notModified: PreparedResponse
    }

    static let maximumFileSize = 8 * 1024 * 1024
    static let maximumTotalSize = 64 * 1024 * 1024

    private let entries: [String: Entry]

    /// URL paths served, sorted (for tests and the start-up log).
    var paths: [String] { entries.keys.sorted() }

    /// Reads `folder` (missing folder: nothing served).
    static func load(from folder: String, commonHeaders: CommonHeaders = .none) throws(PageSetupError) -> StaticFiles {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath().standardizedFileURL.path
        var entries: [String: Entry] = [:]
        var total = 0
        guard let enumerator = FileManager.default.enumerator(atPath: root) else { return StaticFiles(entries: [:]) }
        for case let relative as String in enumerator {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            let full = (root as NSString).appendingPathComponent(relative)
            let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().standardizedFileURL.path
            guard resolved.hasPrefix(root + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            guard let data = FileManager.default.contents(atPath: resolved) else {
                throw PageSetupError("cannot read \(full)")
            }
            guard data.count <= maximumFileSize else {
                throw PageSetupError("\(full) is \(data.count) bytes; static files are limited to \(maximumFileSize) bytes")
            }
            total += data.count
            guard total <= maximumTotalSize else {
                throw PageSetupError("\(folder) holds more than \(maximumTotalSize) bytes; static files are kept in memory")
            }
            let bytes = Array(data)
            let tag = EntityTag.strong(for: bytes)
            var headers: HTTPHeaders = [
                "Content-Type": MediaTypes.type(forFileName: relative),
                "Cache-Control": "public, max-age=86400",
                "ETag": tag,
            ]
            SecurityHeaders.apply(to: &headers)
            commonHeaders.apply(to: &headers)
            do {
                let ok = try PreparedResponse(status: 200, headers: headers, body: bytes)
                let notModified = try ok.notModified(headers: commonHeaders.applied(to: ["ETag": tag, "Cache-Control": "public, max-age=86400"]))
                entries["/static/" + relative] = Entry(tag: tag, ok: ok, notModified: notModified)
            } catch {
                throw PageSetupError("cannot prepare \(full): \(error)")
            }
        }
        return StaticFiles(entries: entries)
    }

    private init(entries: [String: Entry]) {
        self.entries = entries
    }

    /// The response for a decoded request path, honouring `If-None-Match`; `nil` if not a file.
    func response(for path: String, ifNoneMatch: String?) -> PreparedResponse? {
        guard let entry = entries[path] else { return nil }
        if let ifNoneMatch, EntityTag.ifNoneMatch(ifNoneMatch, matches: entry.tag) { return entry.notModified }
        return entry.ok
    }
}
