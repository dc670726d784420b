/// Checks `<Application Identifier Prefix>.<Bundle Identifier>` strings such as `ABCDE12345.com.example.app`;
/// used by the validator and by the config check, so both accept the same app IDs.
public enum AppIDFormat {
    public enum Verdict: Equatable, Sendable {
        case valid
        /// Well formed, but the prefix is not ten characters (the seeds' placeholder `TEAMID`).
        case unusualTeamID(String)
        case malformed(String)
    }

    public static func check(_ appID: String) -> Verdict {
        guard let dot = appID.firstIndex(of: ".") else {
            return .malformed("\"\(appID)\" has no team prefix; an app ID is <team ID>.<bundle ID>")
        }
        let prefix = appID[..<dot]
        let bundle = appID[appID.index(after: dot)...]
        guard !prefix.isEmpty, prefix.unicodeScalars.allSatisfy(isUpperAlphanumeric) else {
            return .malformed("\"\(appID)\" has the team prefix \"\(prefix)\", which is not upper-case letters and digits")
        }
        let parts = bundle.split(separator: ".", omittingEmptySubsequences: false)
        guard !bundle.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0.unicodeScalars.allSatisfy(isBundleCharacter) }) else {
            return .malformed("\"\(appID)\" has the bundle ID \"\(bundle)\", which is not dot-separated letters, digits and hyphens")
        }
        guard prefix.unicodeScalars.count == 10 else {
            return .unusualTeamID(
                "\"\(appID)\" has the team prefix \"\(prefix)\" (\(prefix.unicodeScalars.count) characters); Apple team IDs are 10 upper-case letters or digits"
            )
        }
        return .valid
    }

    private static func isUpperAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }

    private static func isBundleCharacter(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
    }
}
