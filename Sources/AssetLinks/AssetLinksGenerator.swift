import OrderedJSON

/// Writes a site's assetlinks.json: one statement that lets the Android app with `packageName`,
/// signed with one of `fingerprints`, open the site's links (Android App Links verification).
public enum AssetLinksGenerator {
    public static func document(packageName: String, fingerprints: [String]) -> JSONValue {
        .array([
            .object([
                JSONMember("relation", .array([.string(AssetLinksRelation.handleAllURLs)])),
                JSONMember(
                    "target",
                    .object([
                        JSONMember("namespace", "android_app"),
                        JSONMember("package_name", .string(packageName)),
                        JSONMember("sha256_cert_fingerprints", .array(fingerprints.map { .string($0) })),
                    ])),
            ])
        ])
    }
}
