extension QRCode {
    /// The code drawn with Unicode half blocks, two module rows per line of text, quiet zone
    /// included, so it fits a terminal and a phone can scan it off the screen.
    ///
    /// With `colours` every line is set black on white with 256-colour escapes (palette entries 16
    /// and 231, which themes rarely remap), so the code has the right polarity on dark and light
    /// terminals alike. Without them, dark modules are drawn in the terminal's text colour, which
    /// scans on a light background (and, inverted, by readers that accept inverted codes).
    public func terminalText(colours: Bool = true) -> String {
        let side = sizeWithQuietZone
        let start = colours ? "\u{1B}[38;5;16;48;5;231m" : ""
        let end = colours ? "\u{1B}[0m" : ""
        var text = ""
        for pair in stride(from: 0, to: side, by: 2) {
            text += start
            for column in 0..<side {
                let top = self[column - Self.quietZone, pair - Self.quietZone]
                let bottom = pair + 1 < side && self[column - Self.quietZone, pair + 1 - Self.quietZone]
                text += Self.halfBlock(top: top, bottom: bottom)
            }
            text += end + "\n"
        }
        return text
    }

    /// The character for a column of two modules: full block, upper half, lower half or space.
    static func halfBlock(top: Bool, bottom: Bool) -> String {
        switch (top, bottom) {
        case (true, true): "\u{2588}"
        case (true, false): "\u{2580}"
        case (false, true): "\u{2584}"
        case (false, false): " "
        }
    }
}
