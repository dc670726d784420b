import Foundation

/// How wide a table may be on this output.
enum TerminalWidth {
    /// The width tables are cut to: `COLUMNS` when set, else the terminal's own width, and no limit
    /// when the output is not a terminal (a pipe or file gets every cell whole).
    static var columns: Int? {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let value = Int(text), value >= 40 { return value }
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 40 { return Int(size.ws_col) }
        return 120
    }
}
