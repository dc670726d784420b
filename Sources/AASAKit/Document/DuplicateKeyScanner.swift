import OrderedJSON

/// Reports every object in a document that names a key twice (AASA005).
enum DuplicateKeyScanner {
    static func findings(in root: JSONValue) -> [AASAFinding] {
        root.repeatedKeyPaths().map { path in
            let key = path.lastKey ?? ""
            return AASAFinding(
                .duplicateKey, at: path,
                "the key \"\(key)\" appears more than once in this object; only the last one is used",
                fix: "keep one \"\(key)\" and merge the values you need into it")
        }
    }
}
