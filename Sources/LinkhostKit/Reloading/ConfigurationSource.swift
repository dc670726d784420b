/// Where `serve` gets its configuration, so a reload reads it exactly as the start did: the same
/// file, the same command-line overrides, the same environment for the ingest keys.
public struct ConfigurationSource: Sendable {
    public let path: String
    public let overrides: ConfigurationOverrides
    /// The environment the ingest keys are read from (the process's, as it was at start).
    public let environment: [String: String]

    public init(path: String, overrides: ConfigurationOverrides = ConfigurationOverrides(), environment: [String: String] = [:]) {
        self.path = path
        self.overrides = overrides
        self.environment = environment
    }

    /// The checked configuration (every start-up check, the agreement proof included).
    public func configuration() throws(ConfigurationError) -> LinkhostConfiguration {
        try ConfigurationLoader.load(path: path, overrides: overrides)
    }

    /// The ingest keys of the given sites.
    public func ingestKeys(siteIDs: [String]) throws(IngestKeyError) -> IngestKeys {
        try IngestKeys.fromEnvironment(environment, siteIDs: siteIDs)
    }

    /// Both, for a reload: any problem as a `ReloadFailure`.
    func load() throws(ReloadFailure) -> (LinkhostConfiguration, IngestKeys) {
        let configuration: LinkhostConfiguration
        do {
            configuration = try self.configuration()
        } catch {
            throw ReloadFailure(error)
        }
        do {
            return (configuration, try ingestKeys(siteIDs: configuration.sites.map(\.id)))
        } catch {
            throw ReloadFailure("\(error)")
        }
    }
}
