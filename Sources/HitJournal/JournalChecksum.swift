/// The checksum of a journal record: a 64-bit multiply-and-rotate hash over 8-byte words, folded to
/// 32 bits. It finds torn and overwritten records (a kill during a write, a power loss, stale bytes
/// of an earlier lap), not deliberate forgery: the journal is a local file only linkhost writes. A
/// table-driven CRC-32 costs about five instructions a byte; this costs about half an instruction,
/// and it runs on the request path for every logged request.
enum JournalChecksum {
    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// The hash of `bytes`, continuing from `seed` (the hash of what came before).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0x243F_6A88_85A3_08D3) -> UInt64 {
        var state = seed ^ UInt64(bytes.count)
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            state = mix(state, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        if index < count {
            var tail: UInt64 = 0
            for offset in index..<count { tail |= UInt64(bytes[offset]) << (UInt64(offset - index) * 8) }
            state = mix(state, tail)
        }
        return finish(state)
    }

    /// Folds a 64-bit hash into the 32 bits a record header keeps.
    static func fold(_ hash: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (state ^ word) &* multiplier
        return (mixed << 29) | (mixed >> 35)
    }

    @inline(__always)
    private static func finish(_ state: UInt64) -> UInt64 {
        var value = state
        value ^= value >> 33
        value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        return value
    }
}
