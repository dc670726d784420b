/// The JSON of an AASA file as written: the bytes themselves, or the content of the CMS (PKCS #7)
/// signature iOS 8 wanted around them. iOS 9 and later read plain JSON over HTTPS and Apple's CDN
/// does the fetching, so a server serves ``json``, never the envelope (AASA040).
public struct AASAFileContent: Sendable {
    /// The JSON bytes: the file, or the content of its signed envelope (not verified).
    public let json: [UInt8]
    /// Whether the file came signed; ``signatureFinding`` then says why signing is obsolete.
    public let wasSigned: Bool

    /// Throws ``AASADocumentError/malformedSignature(_:)`` for bytes that start like a signed
    /// envelope but cannot be unwrapped (a detached signature, a truncated file).
    public init(fileBytes: [UInt8]) throws(AASADocumentError) {
        switch CMSEnvelope.unwrap(fileBytes) {
        case .notCMS:
            json = fileBytes
            wasSigned = false
        case .content(let content):
            json = content
            wasSigned = true
        case .malformed(let reason):
            throw .malformedSignature(reason)
        }
    }

    /// AASA040 for a signed file, `nil` for plain JSON.
    public var signatureFinding: AASAFinding? { wasSigned ? Self.signedFileFinding : nil }

    static let signedFileFinding = AASAFinding(
        .signedFile, at: .root,
        "the file is JSON inside a CMS (PKCS #7) signature, as iOS 8 required; iOS 9 and later read plain JSON over HTTPS, and the signature is obsolete (linkhost reads the content without verifying it)",
        fix: "serve the JSON itself with Content-Type: application/json (openssl cms -verify -noverify -inform DER -in FILE -out aasa.json extracts it)")
}
