/// Reads the modules back out of the QR drawings linkhost writes as text, so a test can check
/// what was drawn without trusting the code that drew it: the SVG's path and the terminal's
/// half blocks. Modules come row by row, `true` for dark, quiet zone included.
public enum QRDrawingReader {
    public struct Unreadable: Error, CustomStringConvertible {
        public let description: String
    }

    /// The modules of an SVG whose path is one `M{x} {y}h{n}v1h-{n}z` rectangle per run, on a
    /// `side` × `side` view box.
    public static func modules(ofSVG svg: String, side: Int) throws -> [Bool] {
        guard let start = svg.range(of: " d=\"") else { throw Unreadable(description: "no path in the SVG") }
        let path = svg[start.upperBound...].prefix { $0 != "\"" }
        var modules = [Bool](repeating: false, count: side * side)
        for run in path.split(separator: "M") {
            let numbers = run.split { !$0.isNumber }.compactMap { Int($0) }
            // x, y, the run's length, 1 (one row down), the length again (back).
            guard numbers.count == 5, numbers[3] == 1, numbers[2] == numbers[4], numbers[1] < side, numbers[0] + numbers[2] <= side else {
                throw Unreadable(description: "run \(run) is not a rectangle inside the code")
            }
            for x in numbers[0]..<(numbers[0] + numbers[2]) { modules[numbers[1] * side + x] = true }
        }
        return modules
    }

    /// The modules of a terminal drawing: two rows per line, full block, upper half, lower half or
    /// space per column; colour escapes are skipped. The side is the width of the first line.
    public static func modules(ofTerminalDrawing text: String) throws -> (modules: [Bool], side: Int) {
        let lines = text.split(separator: "\n").map { Array(withoutEscapes(String($0))) }
        guard let side = lines.first?.count, side > 0, lines.count == (side + 1) / 2, lines.allSatisfy({ $0.count == side }) else {
            throw Unreadable(description: "the drawing is not \((lines.first?.count ?? 0) / 2) lines of equal width")
        }
        var modules = [Bool](repeating: false, count: side * side)
        for (row, line) in lines.enumerated() {
            for (column, cell) in line.enumerated() {
                let (top, bottom): (Bool, Bool) =
                    switch cell {
                    case "\u{2588}": (true, true)
                    case "\u{2580}": (true, false)
                    case "\u{2584}": (false, true)
                    case " ": (false, false)
                    default: throw Unreadable(description: "line \(row) has the character \(cell)")
                    }
                modules[2 * row * side + column] = top
                if 2 * row + 1 < side { modules[(2 * row + 1) * side + column] = bottom }
            }
        }
        return (modules, side)
    }

    /// `line` without ANSI escape sequences (`ESC [ … m`).
    static func withoutEscapes(_ line: String) -> String {
        var text = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                text.append(character)
            }
        }
        return text
    }
}
