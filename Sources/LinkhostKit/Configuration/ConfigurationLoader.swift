import Foundation
import OrderedJSON

/// Turns a config file into a checked `LinkhostConfiguration`, or a `ConfigurationError` listing
/// every problem with its JSON path and fix. Nothing listens until this succeeds.
///
/// The steps: read the file, parse each section (every parser owns its keys), put in the command
/// line's overrides, check what spans sections, then read the TLS files. A problem's knock-on
/// effects are not reported again further on.
public enum ConfigurationLoader {
    /// Reads and checks the config file at `path`, with `overrides` in place of the file's settings.
    public static func load(path: String, overrides: ConfigurationOverrides = ConfigurationOverrides()) throws(ConfigurationError) -> LinkhostConfiguration {
        let bytes = try ConfigurationFile.bytes(at: path)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parse(bytes, source: path, baseDirectory: directory, overrides: overrides)
    }

    /// Throws the problem `load(path:)` would report when the file at `path` cannot be read at all
    /// (missing, a folder, unreadable), so a command can tell that apart from a config with problems.
    public static func checkReadable(path: String) throws(ConfigurationError) {
        _ = try ConfigurationFile.bytes(at: path)
    }

    /// Only `server.pidFile` of the config at `path` (absolute), `nil` when it sets none: what
    /// `linkhost reload` needs, read without the other checks, since a reload usually follows an
    /// edit that the server, not this command, is to judge.
    public static func pidFile(inConfigAt path: String) throws(ConfigurationError) -> String? {
        let document = try ConfigurationFile.document(from: try ConfigurationFile.bytes(at: path), source: path)
        guard let value = document["server"]?["pidFile"] else { return nil }
        guard let text = value.stringValue, !text.isEmpty else {
            throw ConfigurationError(
                source: path,
                problems: [
                    ConfigurationProblem(
                        path: JSONPath.root.appending("server").appending("pidFile"), problem: "the pid file must be a non-empty string",
                        fix: "write e.g. \"/run/linkhost.pid\"")
                ])
        }
        return PathResolver(baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path).resolve(text)
    }

    /// Only `server.admin` of the config at `path` (absolute): where the admin listener listens,
    /// whether over HTTPS, and its token file, read without the other checks — what `linkhost probe
    /// --details` needs, whose answer matters most when the file on disk is a config a reload refused.
    public static func adminSettings(inConfigAt path: String) throws(ConfigurationError) -> AdminSettings {
        let document = try ConfigurationFile.document(from: try ConfigurationFile.bytes(at: path), source: path)
        guard let server = document["server"], let keys = server.objectMembers?.map(\.key) else { return .defaults }
        let problems = ConfigurationProblems()
        // Every key of `server` is allowed here: the other settings are the server's to judge.
        guard
            let reader = ConfigObjectReader(
                server, at: JSONPath.root.appending("server"), problems: problems, what: "the server settings", allowedKeys: keys)
        else { return .defaults }
        let paths = PathResolver(baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let settings = AdminSectionParser(problems: problems, paths: paths).read(reader)
        guard problems.isEmpty else { throw ConfigurationError(source: path, problems: problems.items) }
        return settings
    }

    /// Checks config JSON given as bytes; relative paths inside resolve against `baseDirectory`.
    public static func parse(
        _ bytes: [UInt8], source: String = "<inline>", baseDirectory: String = ".", overrides: ConfigurationOverrides = ConfigurationOverrides()
    ) throws(ConfigurationError) -> LinkhostConfiguration {
        let document = try ConfigurationFile.document(from: bytes, source: source)
        let problems = ConfigurationProblems()
        let paths = PathResolver(baseDirectory: baseDirectory)
        guard var configuration = ConfigurationDocumentParser(problems: problems, paths: paths).read(document) else {
            throw ConfigurationError(source: source, problems: problems.items)
        }
        overrides.apply(to: &configuration, problems: problems)
        ConfigurationCrossChecks(problems: problems).check(configuration)
        let tls = configuration.tls?.settings(problems: problems)
        guard problems.isEmpty else {
            throw ConfigurationError(source: source, problems: problems.items)
        }
        return configuration.checked(tls: tls)
    }
}
