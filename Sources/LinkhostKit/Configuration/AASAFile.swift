import AASAKit
import HTTPServing
import LinkLog
import LinkRules
import OrderedJSON

/// An AASA file ready to serve: its exact bytes and where they came from.
public struct AASAFile: Sendable {
    /// Largest uncompressed file iOS accepts (iOS 9.3.1 and later; swcd caps its buffer at 0x20000).
    public static let maximumSize = AASAValidator.maximumFileSize

    public var bytes: [UInt8]
    /// The parsed document (for tools that inspect it).
    public var document: JSONValue
    /// `generated` when built from the link rules, else the file path it was read from.
    public var origin: String
    /// AASA040 when `aasa.file` is in a CMS (PKCS #7) signature: ``bytes`` are the JSON inside it,
    /// and the server warns at start that signing is obsolete.
    public var unwrappedSignature: AASAFinding? = nil
}

/// An assetlinks.json ready to serve: its exact bytes, generated from `app.android`.
public struct AssetLinksFile: Sendable {
    public var bytes: [UInt8]
    public var document: JSONValue
}
