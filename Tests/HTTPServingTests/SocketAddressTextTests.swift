import Glibc
import HTTPServing
import Testing

@Suite("Socket address text")
struct SocketAddressTextTests {
    /// inet_ntop's text for an IPv4 address in host byte order: what `dottedQuad` replaces.
    private func libcText(_ address: UInt32) -> String {
        var binary = in_addr(s_addr: address.bigEndian)
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        let written = inet_ntop(AF_INET, &binary, &buffer, socklen_t(buffer.count))
        #expect(written != nil)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("IPv4 peers are written exactly as inet_ntop writes them")
    func dottedQuadMatchesInetNtop() {
        var addresses: [UInt32] = [0, 1, 0x7F00_0001, 0x0A00_0001, 0xC000_0209, 0x6464_6464, 0xFFFF_FFFF, 0x0909_0909, 0x0A0A_0A0A, 0x6363_6363]
        var state: UInt32 = 2_463_534_242
        for _ in 0..<10_000 {
            // xorshift32: every octet width (1, 2 and 3 digits) in every position.
            state ^= state << 13
            state ^= state >> 17
            state ^= state << 5
            addresses.append(state)
        }
        for address in addresses {
            #expect(SocketAddressText.dottedQuad(address) == libcText(address))
        }
    }
}
