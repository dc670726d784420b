/// Checks Android application IDs (`com.yaman.rowhni`), the `package_name` of an assetlinks.json
/// statement; used by the config check and the validator, so both accept the same names.
public enum AndroidPackageName {
    /// What is wrong with `name` and how to fix it, or `nil` when it is a valid application ID:
    /// two or more dot-separated segments, each a letter followed by letters, digits or `_`.
    public static func problem(with name: String) -> (problem: String, fix: String)? {
        let example = "e.g. \"com.example.app\""
        guard !name.isEmpty else { return ("the package name is empty", "write the app's applicationId from its build.gradle, \(example)") }
        let segments = name.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count >= 2 else {
            return ("\"\(name)\" has one segment; an Android package name has at least two", "write the full applicationId, \(example)")
        }
        for segment in segments {
            guard let first = segment.unicodeScalars.first else {
                return ("\"\(name)\" has an empty segment", "remove the extra dot, \(example)")
            }
            guard isLetter(first) else {
                return ("\"\(name)\" has the segment \"\(segment)\", which does not start with a letter", "start every segment with a letter, \(example)")
            }
            guard segment.unicodeScalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
                return (
                    "\"\(name)\" has the segment \"\(segment)\", which holds a character other than letters, digits and \"_\"",
                    "write the applicationId exactly as in the app's build.gradle, \(example)"
                )
            }
        }
        return nil
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
