import AASAKit
import Foundation
import LinkRules
import OrderedJSON

/// Reads a site's `aasa` object and makes the site's AASA file: generated from the link rules plus
/// the options, or read from `aasa.file` and served byte for byte (the JSON inside, for a file in
/// an obsolete CMS signature).
struct AASASectionParser {
    static let allowedKeys = ["extraComponents", "webcredentials", "appclips", "activitycontinuation", "legacyPaths", "file", "allowComponentsWithoutPages"]
    /// The keys that go with `file` (everything else generates the file).
    static let fileKeys = ["file", "allowComponentsWithoutPages"]

    let problems: ConfigurationProblems
    let paths: PathResolver

    /// `declaresRules` says whether the site lists link rules at all, even ones that did not read:
    /// only a site that lists none is told it has no content.
    func read(_ site: ConfigObjectReader, rules: [LinkRule], declaresRules: Bool, appIDs: [String]) -> (AASAFile, AASAPolicy)? {
        let options = site.object("aasa", what: "the AASA options", allowedKeys: Self.allowedKeys)
        let path = options?.path ?? site.path.appending("aasa")
        let allowsUnserved = options?.bool("allowComponentsWithoutPages", default: false) ?? false
        if let options, let fileEntry = options.string("file", fix: "write the path of the AASA file, relative to the config file's folder") {
            if options.members.contains(where: { !$0.key.hasPrefix("//") && !Self.fileKeys.contains($0.key) }) {
                problems.add(
                    path.appending("file"), "\"file\" is combined with generation options",
                    fix: "keep \"file\" alone (the file is served as it is), or remove it to generate the file from the links")
            }
            return readFile(fileEntry, at: path.appending("file")).map {
                ($0, AASAPolicy(extraComponentCount: 0, isGenerated: false, allowsComponentsWithoutPages: allowsUnserved))
            }
        }
        let generation = options.map(readGenerationOptions) ?? AASAGenerator.Options()
        if !declaresRules && generation.extraComponents.isEmpty && generation.passThroughSections.isEmpty {
            problems.add(
                site.path.appending("links"), "the site has no link rules and no AASA content",
                fix: "add \"links\": [ ... ], or \"aasa\": { \"file\": \"...\" }")
            return nil
        }
        let document = AASAGenerator.document(rules: rules, appIDs: appIDs, options: generation)
        let bytes = document.serialized(.pretty(indent: 4))
        guard check(document, size: bytes.count, at: path) else { return nil }
        let policy = AASAPolicy(extraComponentCount: generation.extraComponents.count, isGenerated: true, allowsComponentsWithoutPages: allowsUnserved)
        return (AASAFile(bytes: bytes, document: document, origin: "generated"), policy)
    }

    private func readGenerationOptions(_ options: ConfigObjectReader) -> AASAGenerator.Options {
        var generation = AASAGenerator.Options()
        generation.legacyPaths = options.bool("legacyPaths", default: true)
        if let extra = options.value("extraComponents") {
            if case .array(let components) = extra {
                for (index, component) in components.enumerated() where component.objectMembers == nil {
                    problems.add(
                        options.path.appending("extraComponents").appending(index), "a component must be an object, found \(component.kindDescription)",
                        fix: "write e.g. { \"/\": \"/admin/*\", \"exclude\": true }")
                }
                generation.extraComponents = components.filter { $0.objectMembers != nil }
            } else {
                problems.add(
                    options.path.appending("extraComponents"), "\"extraComponents\" must be an array of components",
                    fix: "write e.g. [ { \"/\": \"/admin/*\", \"exclude\": true } ]")
            }
        }
        for section in ["webcredentials", "appclips", "activitycontinuation"] {
            guard let value = options.value(section) else { continue }
            guard value.objectMembers != nil else {
                problems.add(
                    options.path.appending(section), "\"\(section)\" must be an object, found \(value.kindDescription)",
                    fix: "write { \"apps\": [\"TEAMID.bundle.id\"] }")
                continue
            }
            generation.passThroughSections.append(JSONMember(section, value))
        }
        return generation
    }

    private func readFile(_ relative: String, at path: JSONPath) -> AASAFile? {
        guard !relative.isEmpty else {
            problems.add(path, "the path is empty", fix: "write the path of the AASA file, relative to the config file's folder")
            return nil
        }
        let resolved = paths.resolve(relative)
        guard let data = FileManager.default.contents(atPath: resolved) else {
            problems.add(path, "cannot read \(resolved)", fix: "check the path (it is relative to the config file's folder) and the file's permissions")
            return nil
        }
        // A signed file (CMS, as iOS 8 wanted) is served as the JSON inside it: iOS 9 and later
        // read plain JSON, and `check`/`match` read such a file the same way (AASA040).
        let content: AASAFileContent
        do {
            content = try AASAFileContent(fileBytes: Array(data))
        } catch {
            problems.add(
                path, "\(resolved): \(error)",
                fix: "serve the plain JSON (openssl cms -verify -noverify -inform DER -in FILE -out aasa.json extracts it from a signed file)")
            return nil
        }
        let bytes = content.json
        guard bytes.count <= AASAFile.maximumSize else {
            let what = content.wasSigned ? "the JSON signed in \(resolved)" : resolved
            problems.add(
                path, "\(what) is \(bytes.count) bytes; iOS refuses AASA files over \(AASAFile.maximumSize) bytes (128 KB)",
                fix: "remove rules or merge them with wildcards until the file is at most 128 KB")
            return nil
        }
        let document: JSONValue
        do {
            document = try JSONParser(duplicateKeys: .keepAll).parse(bytes)  // Apple reads the last duplicate; check warns (AASA005)
        } catch {
            problems.add(
                path, "\(resolved) is not valid JSON (line \(error.line), column \(error.column)): \(error.message)",
                fix: "correct the file; iOS ignores an AASA file that does not parse")
            return nil
        }
        guard check(document, size: bytes.count, at: path) else { return nil }
        return AASAFile(bytes: bytes, document: document, origin: resolved, unwrappedSignature: content.signatureFinding)
    }

    /// The checks the server itself needs before serving an AASA file: an object with at least one
    /// service, and no larger than iOS accepts. (`linkhost check` looks much deeper.)
    private func check(_ document: JSONValue, size: Int, at path: JSONPath) -> Bool {
        guard let members = document.objectMembers else {
            problems.add(
                path, "the AASA document must be a JSON object, found \(document.kindDescription)", fix: "write { \"applinks\": { \"details\": [ ... ] } }")
            return false
        }
        let services = ["applinks", "webcredentials", "appclips", "activitycontinuation"]
        guard members.contains(where: { services.contains($0.key) }) else {
            problems.add(
                path, "the AASA document has none of the services \(services.joined(separator: ", "))",
                fix: "add at least \"applinks\": { \"details\": [ ... ] }")
            return false
        }
        guard size <= AASAFile.maximumSize else {
            problems.add(
                path, "the AASA file would be \(size) bytes; iOS refuses files over \(AASAFile.maximumSize) bytes (128 KB)",
                fix: "remove rules or merge them with wildcards until the file is at most 128 KB")
            return false
        }
        return true
    }
}
