import Foundation
import OrderedJSON
import TestSupport

/// The shipped config as a JSON document a test edits and writes into its temporary folder, with
/// the public folder pointed at the repository's (read only), so the binary can serve and reload it.
struct EditableConfig {
    var document: JSONValue
    let file: String

    /// The shipped config, to be written as `<folder>/<name>`.
    init(in folder: TemporaryDirectory, name: String = "config.json") throws {
        document = try JSONParser().parse(Array(try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.shippedConfig))))
        file = folder.path + "/" + name
        set("server.publicDirectory", to: .string(ProjectPaths.root + "/Public"))
        // The tests' files are in memory (/dev/shm), where a journal's reserved blocks are memory:
        // 8 MiB, not the default sized for a production outage.
        set("log.journal.sizeBytes", to: 8_388_608)
    }

    /// Replaces (or adds) the value at a dotted path of object keys.
    mutating func set(_ path: String, to value: JSONValue) {
        document = document.setting(path, to: value)
    }

    /// Changes the site at `index` through `edit`, which gets its members.
    mutating func editSite(_ index: Int, _ edit: (inout [JSONMember]) -> Void) {
        guard var sites = document["sites"]?.arrayElements, var members = sites[index].objectMembers else { return }
        edit(&members)
        sites[index] = .object(members)
        set("sites", to: .array(sites))
    }

    /// Appends a link rule to the site at `index`.
    mutating func addRule(_ rule: JSONValue, toSite index: Int = 0) {
        editSite(index) { members in
            guard let position = members.firstIndex(where: { $0.key == "links" }), case .array(let rules) = members[position].value else { return }
            members[position].value = .array(rules + [rule])
        }
    }

    /// Keeps only the site at `index`.
    mutating func keepOnlySite(_ index: Int) {
        guard let sites = document["sites"]?.arrayElements else { return }
        set("sites", to: .array([sites[index]]))
    }

    /// Writes the document (atomically: a reload never reads half a file).
    @discardableResult
    func write() throws -> String {
        try Data(document.serialized()).write(to: URL(fileURLWithPath: file), options: .atomic)
        return file
    }

    /// Writes `text` as the config, broken or not.
    func write(text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
    }

    /// A rule for `/joinevent?code=…` (an invite code), with an example so the start-up checks prove it.
    static func joinEventRule(secret: Bool = false) -> JSONValue {
        .object([
            JSONMember("name", "joinevent"),
            JSONMember("path", "/joinevent"),
            JSONMember("params", .object([JSONMember("code", .object([JSONMember("type", "inviteCode"), JSONMember("secret", .bool(secret))]))])),
            JSONMember("app", "rowhni://joinevent?code={code}"),
            JSONMember("title", .object([JSONMember("en", "Event invitation"), JSONMember("de", "Einladung zu einem Treffen")])),
            JSONMember("comment", "Event invitations: /joinevent?code=XXXX"),
            JSONMember("examples", ["/joinevent?code=TEST123"]),
        ])
    }
}
