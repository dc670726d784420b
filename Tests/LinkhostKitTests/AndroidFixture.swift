import AssetLinks
import Foundation
import LinkhostKit
import OrderedJSON
import TestSupport

/// The Android app tests give the Rowhni site. The shipped config has none (no seed document names
/// an Android app), so every test that needs one adds it to a copy of the shipped config.
enum AndroidFixture {
    static let package = "com.yaman.rowhni"
    static let fingerprints = [
        CertificateFingerprint.example,
        "C4:19:7E:0B:62:AF:35:D1:88:40:9C:EE:13:57:B2:6A:F0:24:8D:71:CA:3E:95:06:BB:52:E9:1F:60:D7:48:A3",
    ]

    /// `app.android` as a config writes it, with `playURL` when given.
    static func block(playURL: String? = nil) -> JSONValue {
        var members = [
            JSONMember("package", .string(package)),
            JSONMember("sha256CertFingerprints", .array(fingerprints.map { .string($0) })),
        ]
        if let playURL { members.append(JSONMember("playURL", .string(playURL))) }
        return .object(members)
    }

    /// `document` (a whole config) with `block` as the `app.android` of the site `siteID`.
    static func adding(_ block: JSONValue = block(), toSite siteID: String = "rowhni", in document: JSONValue) -> JSONValue {
        guard case .object(var members) = document, let index = members.firstIndex(where: { $0.key == "sites" }),
            case .array(let sites) = members[index].value
        else { return document }
        members[index].value = .array(
            sites.map { site in
                guard site["id"] == .string(siteID) else { return site }
                return site.setting("app.android", to: block)
            })
        return .object(members)
    }

    /// The shipped config with Rowhni's Android app, ready to serve on a free port (see
    /// `shippedConfiguration`).
    static func configuration(block: JSONValue = block(), logDatabase: String? = nil) throws -> LinkhostConfiguration {
        try shippedConfiguration(logDatabase: logDatabase) { adding(block, in: $0) }
    }

    /// The shipped config with Rowhni's Android app as a file in `folder`, for the command line:
    /// the public folder is the repository's, and the log (if anything opens it) is in `folder`.
    static func configFile(in folder: TemporaryDirectory, block: JSONValue = block(), settings: [String: JSONValue] = [:]) throws -> String {
        var document = adding(block, in: try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig)))))
        document = document.setting("server.publicDirectory", to: .string(ProjectPaths.root + "/Public"))
        document = document.setting("log.database", to: .string(folder.path + "/log.sqlite"))
        for (path, value) in settings { document = document.setting(path, to: value) }
        return try folder.write("config.json", document.jsonText())
    }
}
