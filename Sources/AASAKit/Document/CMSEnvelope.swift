import SwiftASN1

/// Takes the JSON out of a CMS (PKCS #7) SignedData envelope (RFC 5652), the way AASA files were
/// served for iOS 8 (`openssl smime -sign -nodetach -outform DER`). The bytes are parsed as BER
/// with swift-asn1, which follows indefinite lengths (`openssl cms -stream` writes them) and bounds
/// the nesting; then the path to the signed content is walked:
///
///     ContentInfo ::= SEQUENCE { contentType OID signedData, [0] EXPLICIT SignedData }
///     SignedData  ::= SEQUENCE { version INTEGER, digestAlgorithms SET,
///                                encapContentInfo SEQUENCE { eContentType OID, [0] EXPLICIT OCTET STRING OPTIONAL }, … }
///
/// The signature is not verified: iOS 9 and later ignore signing over HTTPS, and linkhost reads the
/// file to explain what the JSON says. Anything that is not as expected, a truncated file or
/// hostile nesting included, is a `malformed` answer, never a trap.
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
        let root: ASN1Node
        do {
            root = try BER.parse(bytes)
        } catch {
            return .malformed(Self.reason(error))
        }
        do throws(Malformed) {
            var contentInfo = try children(of: root, tag: 0x30, "the ContentInfo SEQUENCE")
            _ = try next(&contentInfo, tag: 0x06, "the content type")
            var explicit = try children(of: try next(&contentInfo, tag: 0xA0, "the [0] content of the ContentInfo"))
            var fields = try children(of: try next(&explicit, tag: 0x30, "the SignedData SEQUENCE"))
            _ = try next(&fields, tag: 0x02, "the SignedData version")
            _ = try next(&fields, tag: 0x31, "the digest algorithms SET")
            var encapsulated = try children(of: try next(&fields, tag: 0x30, "the encapsulated content info"))
            _ = try next(&encapsulated, tag: 0x06, "the content type")
            guard let wrapper = encapsulated.next() else {
                return .malformed("the signature is detached: the envelope holds no content (sign with -nodetach)")
            }
            var content = try children(of: wrapper, tag: 0xA0, "the [0] signed content")
            guard let octets = content.next() else { throw Malformed("the [0] signed content is empty") }
            // 0x04 holds the bytes; 0x24 (BER) holds them in chunks, each an OCTET STRING itself.
            guard octets.identifier == .octetString else {
                throw Malformed("expected the signed content as an OCTET STRING, found tag \(Self.tag(of: octets))")
            }
            do {
                return .content(Array(try ASN1OctetString(berEncoded: octets).bytes))
            } catch {
                throw Malformed("the signed content is chunked, and a chunk is not an OCTET STRING")
            }
        } catch {
            return .malformed(error.reason)
        }
    }

    /// Why the envelope is not a well-formed BER element, in the words of the file's diagnostic.
    private static func reason(_ error: any Error) -> String {
        switch (error as? ASN1Error)?.code {
        case .truncatedASN1Field?: "the envelope ends inside an element (the file is cut short)"
        case .unsupportedFieldLength?: "an element of the envelope has a length BER does not allow"
        default: "the envelope is not well-formed BER (an element is malformed, it nests too deep, or bytes follow its end)"
        }
    }

    /// The next element, which must start with the identifier octet `tag`; `what` names it.
    private static func next(_ nodes: inout ASN1NodeCollection.Iterator, tag: UInt8, _ what: String) throws(Malformed) -> ASN1Node {
        guard let node = nodes.next() else { throw Malformed("expected \(what), but its enclosing element ends first") }
        guard node.encodedBytes.first == tag else {
            throw Malformed("expected \(what) (tag 0x\(String(tag, radix: 16))), found tag \(Self.tag(of: node))")
        }
        return node
    }

    /// The elements inside `node`, which must be constructed.
    private static func children(of node: ASN1Node) throws(Malformed) -> ASN1NodeCollection.Iterator {
        guard case .constructed(let nodes) = node.content else { throw Malformed("an element expected to hold others is primitive") }
        return nodes.makeIterator()
    }

    /// The elements inside `node`, which must start with the identifier octet `tag`.
    private static func children(of node: ASN1Node, tag: UInt8, _ what: String) throws(Malformed) -> ASN1NodeCollection.Iterator {
        guard node.encodedBytes.first == tag else {
            throw Malformed("expected \(what) (tag 0x\(String(tag, radix: 16))), found tag \(Self.tag(of: node))")
        }
        return try children(of: node)
    }

    private static func tag(of node: ASN1Node) -> String {
        node.encodedBytes.first.map { "0x" + String($0, radix: 16) } ?? "(none)"
    }

    /// Why the walk to the content stopped.
    private struct Malformed: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
