import Foundation

/// Reads Linux's process table, for tests that must signal a process their child started (a
/// wrapper script's program) by its id rather than by a name pattern.
public enum ProcessTable {
    /// The ids of the processes whose parent is `parent`, from `/proc/<pid>/stat`.
    public static func children(of parent: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8) else { return nil }
            // The command name is in parentheses and may itself hold spaces or parentheses: the
            // fields after the last ")" are state, then the parent id.
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parentID = Int32(fields[1]) else { return nil }
            return parentID == parent ? pid : nil
        }
    }
}
