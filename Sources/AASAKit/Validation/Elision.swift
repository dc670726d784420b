/// Shortens long text for messages by cutting out its middle, so a 5,000-character pattern or URL
/// shows how it starts and ends instead of filling the terminal.
public enum Elision {
    /// Texts longer than this many characters are cut.
    public static let defaultLimit = 100

    /// `text` itself when short enough, else its start and end joined by `…`, `limit` characters in all.
    public static func middle(_ text: String, limit: Int = defaultLimit) -> String {
        guard text.count > limit, limit >= 3 else { return text }
        let kept = limit - 1
        return String(text.prefix(kept - kept / 2)) + "…" + String(text.suffix(kept / 2))
    }
}
