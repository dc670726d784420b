/// Takes the JSON out of a CMS (PKCS #7) SignedData envelope, the way AASA files were served for
/// iOS 8 (`openssl smime -sign -nodetach -outform DER`). Only as much DER/BER is read as it takes to
/// reach the signed content:
///
///     ContentInfo ::= SEQUENCE { contentType OID signedData, [0] EXPLICIT SignedData }
///     SignedData  ::= SEQUENCE { version INTEGER, digestAlgorithms SET,
///                                encapContentInfo SEQUENCE { eContentType OID, [0] EXPLICIT OCTET STRING OPTIONAL }, … }
///
/// The signature is not verified: iOS 9 and later ignore signing over HTTPS, and linkhost reads the
/// file to explain what the JSON says. Every length is checked against the bytes that remain, BER's
/// indefinite lengths and constructed (chunked) OCTET STRINGs are followed to a bounded depth, and
/// anything else that is not as expected is a `malformed` answer, never a trap.
enum CMSEnvelope {
    enum Outcome: Equatable {
        /// The bytes do not start like a signed CMS envelope; read them as JSON.
        case notCMS
        /// The signed content.
        case content([UInt8])
        /// An envelope that cannot be unwrapped, and why.
        case malformed(String)
    }

    /// 1.2.840.113549.1.7.2, id-signedData, as DER content bytes.
    static let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    /// Nesting followed at most, for indefinite lengths and chunked strings.
    static let maximumDepth = 16

    /// Whether `bytes` start like a signed envelope: a SEQUENCE header, then the signedData OID.
    /// A JSON text can start with 0x30 ("0") but never continues like that; the header's length is
    /// not checked here, so a truncated envelope is still recognised and reported as one.
    static func looksSigned(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > 2, bytes[0] == 0x30 else { return false }
        let lengthByte = bytes[1]
        var offset = 2
        if lengthByte > 0x80 {
            let count = Int(lengthByte & 0x7F)
            guard count <= 4 else { return false }
            offset += count
        }
        let oidHeader: [UInt8] = [0x06, UInt8(signedDataOID.count)]
        return bytes.dropFirst(offset).starts(with: oidHeader + signedDataOID)
    }

    static func unwrap(_ bytes: [UInt8]) -> Outcome {
        guard looksSigned(bytes) else { return .notCMS }
        do {
            var reader = DERReader(bytes: bytes)
            let outer = try reader.expect(tag: 0x30, "the ContentInfo SEQUENCE")
            var contentInfo = reader.child(outer)
            _ = try contentInfo.expect(tag: 0x06, "the content type")
            let explicit = try contentInfo.expect(tag: 0xA0, "the [0] content of the ContentInfo")
            var signedDataReader = contentInfo.child(explicit)
            let signedData = try signedDataReader.expect(tag: 0x30, "the SignedData SEQUENCE")
            var fields = signedDataReader.child(signedData)
            _ = try fields.expect(tag: 0x02, "the SignedData version")
            _ = try fields.expect(tag: 0x31, "the digest algorithms SET")
            let encapsulated = try fields.expect(tag: 0x30, "the encapsulated content info")
            var encapsulatedFields = fields.child(encapsulated)
            _ = try encapsulatedFields.expect(tag: 0x06, "the content type")
            guard !encapsulatedFields.isAtEnd else {
                return .malformed("the signature is detached: the envelope holds no content (sign with -nodetach)")
            }
            let wrapper = try encapsulatedFields.expect(tag: 0xA0, "the [0] signed content")
            var contentReader = encapsulatedFields.child(wrapper)
            let octets = try contentReader.element()
            return .content(try contentReader.octetString(octets, depth: 0))
        } catch {
            return .malformed(error.reason)
        }
    }
}
