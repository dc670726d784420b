import Foundation
import HTTPServing
import LinkhostKit
import OrderedJSON
import TestSupport

/// The configurations the targets route and answer with — the shipped config.json, the tests'
/// textbook.json and Fuzz/fixtures/config.json — read once, and a server for each that answers in
/// this process (`LinkhostServer.answer`), never on a socket. The hit log is off; every site has an
/// ingest key and a rate limit no run reaches, so a report's answer depends on its bytes alone.
enum FuzzFixtures {
    /// The repository's root, from this file's place in it.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The ingest key every site of every fixture takes (`Authorization: Bearer …`).
    static let ingestKey = "fuzz-ingest-key-0123456789"

    static let files = ["config.json", "Tests/Fixtures/textbook.json", "Fuzz/fixtures/config.json"]

    static let configurations: [LinkhostConfiguration] = files.map(load)

    static let servers: [LinkhostServer] = configurations.map { configuration in
        do {
            let keys = try IngestKeys(Dictionary(uniqueKeysWithValues: configuration.sites.map { ($0.id, ingestKey) }))
            return try LinkhostServer(configuration: configuration, ingestKeys: keys)
        } catch {
            FuzzReport.fail("fixture: cannot build a server: \(error)")
        }
    }

    /// Every site of every fixture, in file order.
    static let sites: [SiteConfiguration] = configurations.flatMap(\.sites)

    private static func load(_ file: String) -> LinkhostConfiguration {
        let path = root + "/" + file
        do {
            var document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            document = document.setting("log.enabled", to: .bool(false)).setting("server.publicDirectory", to: .string(root + "/Public"))
            let sites = (document["sites"]?.arrayElements ?? []).map {
                $0.setting("ingest.rateLimit", to: .object([JSONMember("burst", 1_000_000), JSONMember("perSecond", 1_000_000)]))
            }
            document = document.setting("sites", to: .array(sites))
            var overrides = ConfigurationOverrides()
            overrides.listenAddress = .init("127.0.0.1", from: "the fuzz fixture")
            overrides.port = .init(0, from: "the fuzz fixture")
            return try ConfigurationLoader.parse(document.serialized(), source: path, baseDirectory: root, overrides: overrides)
        } catch {
            FuzzReport.fail("fixture \(path) cannot be read: \(error)")
        }
    }
}
