import AASAKit

/// The signed-AASA path: a CMS (PKCS #7) SignedData envelope read with swift-asn1
/// (`AASAFileContent`). With an even first byte the rest of the input is the file as served; with
/// an odd one the rest is content that the target wraps in an envelope itself — in DER, or in BER
/// with indefinite lengths and the content in chunks, as the other bits say — and the envelope
/// must give back exactly that content.
enum SignedAASAFuzzing {
    static let target = FuzzTarget(
        name: "signed-aasa",
        summary: "AASAFileContent/CMSEnvelope on raw bytes; wrap (DER or BER) → unwrap round trip",
        maximumLength: 2048,
        run: run
    )

    static func run(_ bytes: [UInt8]) {
        let mode = bytes.first ?? 0
        let rest = Array(bytes.dropFirst())
        if mode & 1 == 0 {
            guard let content = try? AASAFileContent(fileBytes: rest) else { return }
            if content.wasSigned {
                FuzzReport.check(rest.first == 0x30, "a signed file that does not start with a SEQUENCE: \(FuzzReport.shown(rest))")
                FuzzReport.check(content.json.count < rest.count, "the content is not smaller than its envelope")
            } else {
                FuzzReport.check(content.json == rest, "plain JSON changed on reading")
            }
            if content.wasSigned, let inner = try? AASAFileContent(fileBytes: content.json), inner.wasSigned {
                FuzzReport.check(inner.json.count < content.json.count, "a nested envelope does not shrink")
            }
            return
        }
        let indefinite = mode & 2 != 0
        let chunkSize = Int(mode >> 2) % 16
        let envelope = envelope(content: rest, indefinite: indefinite, chunkSize: chunkSize)
        do {
            let content = try AASAFileContent(fileBytes: envelope)
            FuzzReport.check(content.wasSigned && content.json == rest, "wrapped \(FuzzReport.shown(rest)) came back as \(FuzzReport.shown(content.json))")
        } catch {
            FuzzReport.fail("an envelope of \(rest.count) bytes (indefinite: \(indefinite), chunks of \(chunkSize)) is refused: \(error)")
        }
    }

    /// ContentInfo { signedData, [0] SignedData { version, digestAlgorithms, encapContentInfo
    /// { data, [0] OCTET STRING }, certificates and signerInfos left empty } }.
    static func envelope(content: [UInt8], indefinite: Bool, chunkSize: Int) -> [UInt8] {
        let dataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
        let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        let sha256: [UInt8] = [0x30, 0x0D, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00]
        let octets: [UInt8]
        if chunkSize > 0 {
            var chunks: [UInt8] = []
            var start = 0
            while start < content.count {
                let end = min(content.count, start + chunkSize)
                chunks += element(0x04, Array(content[start..<end]), indefinite: false)
                start = end
            }
            octets = element(0x24, chunks, indefinite: indefinite)
        } else {
            octets = element(0x04, content, indefinite: false)
        }
        let encapsulated = element(0x30, dataOID + element(0xA0, octets, indefinite: indefinite), indefinite: indefinite)
        let signedData = element(
            0x30, [0x02, 0x01, 0x01] + element(0x31, sha256, indefinite: false) + encapsulated + element(0x31, [], indefinite: false),
            indefinite: indefinite)
        return element(0x30, signedDataOID + element(0xA0, signedData, indefinite: indefinite), indefinite: indefinite)
    }

    /// One element: its identifier, its length (definite in the shortest form, or indefinite with
    /// end-of-contents octets for a constructed one) and its content.
    static func element(_ identifier: UInt8, _ content: [UInt8], indefinite: Bool) -> [UInt8] {
        if indefinite, identifier & 0x20 != 0 { return [identifier, 0x80] + content + [0x00, 0x00] }
        if content.count < 0x80 { return [identifier, UInt8(content.count)] + content }
        var length: [UInt8] = []
        var remaining = content.count
        while remaining > 0 {
            length.insert(UInt8(remaining & 0xFF), at: 0)
            remaining >>= 8
        }
        return [identifier, 0x80 | UInt8(length.count)] + length + content
    }
}
