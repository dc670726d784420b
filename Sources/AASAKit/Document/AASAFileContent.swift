import SwiftASN1

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
    ///
    /// A signature saved PEM-armoured (`-----BEGIN PKCS7-----` or `CMS`, what `openssl smime -sign`
    /// writes without `-outform DER`) is read too: iOS 8 wanted DER, but the content is the same.
    public init(fileBytes: [UInt8]) throws(AASADocumentError) {
        let bytes = try Self.unarmoured(fileBytes)
        switch CMSEnvelope.unwrap(bytes) {
        case .notCMS:
            json = bytes
            wasSigned = false
        case .content(let content):
            json = content
            wasSigned = true
        case .malformed(let reason):
            throw .malformedSignature(reason)
        }
    }

    /// The DER inside a PEM-armoured file, the bytes themselves otherwise.
    private static func unarmoured(_ bytes: [UInt8]) throws(AASADocumentError) -> [UInt8] {
        let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.endIndex
        guard bytes[start...].starts(with: Array("-----BEGIN ".utf8)) else { return bytes }
        let text = String(decoding: bytes[start...], as: UTF8.self)
        let label = text.dropFirst("-----BEGIN ".count).prefix { $0 != "-" && $0 != "\n" }
        guard label == "PKCS7" || label == "CMS" else {
            throw .malformedSignature(
                "the file is PEM-armoured \"\(label)\", not an AASA file or a PKCS7 signature; an AASA file is JSON (openssl cms -verify -noverify -inform PEM -in FILE -out aasa.json extracts a signed one's JSON)"
            )
        }
        do {
            return try PEMDocument(pemString: text).derBytes
        } catch {
            throw .malformedSignature(
                "the file is a PEM-armoured \(label) signature that cannot be read (\(error)); openssl cms -verify -noverify -inform PEM -in FILE -out aasa.json extracts its JSON"
            )
        }
    }

    /// AASA040 for a signed file, `nil` for plain JSON.
    public var signatureFinding: AASAFinding? { wasSigned ? Self.signedFileFinding : nil }

    static let signedFileFinding = AASAFinding(
        .signedFile, at: .root,
        "the file is JSON inside a CMS (PKCS #7) signature, as iOS 8 required; iOS 9 and later read plain JSON over HTTPS, and the signature is obsolete (linkhost reads the content without verifying it)",
        fix: "serve the JSON itself with Content-Type: application/json (openssl cms -verify -noverify -inform DER -in FILE -out aasa.json extracts it)")
}
