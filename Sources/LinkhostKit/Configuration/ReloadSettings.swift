/// The `server.reload` object: what a reload checks before it swaps a new config in.
public struct ReloadSettings: Sendable, Equatable {
    /// The days of logged links a reload answers under the old and the new AASA files (as
    /// `linkhost check --against-log`); 0 turns the check off.
    public var checkAgainstLogDays: Int
    /// Refuse a config under which a logged link would stop opening the app, and keep the old one.
    public var refuseIfLinksStopOpening: Bool

    public static let defaults = ReloadSettings(checkAgainstLogDays: 7, refuseIfLinksStopOpening: false)
}
