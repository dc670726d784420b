import Foundation

/// What one reload did: applied the new config (and which sites' AASA files changed), or refused
/// it and kept serving the old one, with the settings that would need a restart.
public struct ReloadOutcome: Sendable {
    /// When the reload started.
    public let at: Date
    public let durationSeconds: Double
    /// Where the config came from (the config file's path).
    public let source: String
    /// The failure, `nil` when the new config is being served.
    public let failure: ReloadFailure?
    /// Settings changed in the file that the running server keeps until a restart.
    public let needsRestart: [RestartSetting]
    /// Sites whose served AASA file is new, changed or gone, by id.
    public let changedAASA: [String]
    /// The number of the configuration serving after the reload (1 is the one the server started with).
    public let generation: Int
    /// The logged links answered under the old and the new AASA files; `nil` when not checked.
    public var linksCheck: ReloadLinksCheck? = nil

    public var succeeded: Bool { failure == nil }
}
