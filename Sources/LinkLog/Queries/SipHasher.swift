/// SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF", 2012), fed a byte at a
/// time: the 64-bit keys `LinkWindow` files its links and forms under. Keyed with a secret the window's
/// file keeps, so a visitor cannot choose links that share a key and blur the distinct-link counts;
/// a plain hash of that size (FNV) has collisions anyone can compute.
struct SipHasher: LinkFormSink {
    private var v0: UInt64
    private var v1: UInt64
    private var v2: UInt64
    private var v3: UInt64
    /// The bytes not yet in a word, little-endian, and how many bytes came in all.
    private var pending: UInt64 = 0
    private var count: UInt64 = 0

    init(key0: UInt64, key1: UInt64) {
        v0 = key0 ^ 0x736f_6d65_7073_6575
        v1 = key1 ^ 0x646f_7261_6e64_6f6d
        v2 = key0 ^ 0x6c79_6765_6e65_7261
        v3 = key1 ^ 0x7465_6462_7974_6573
    }

    mutating func append(_ byte: UInt8) {
        pending |= UInt64(byte) << ((count & 7) * 8)
        count &+= 1
        if count & 7 == 0 {
            compress(pending)
            pending = 0
        }
    }

    /// The text's bytes and then a byte that no UTF-8 text holds, so that consecutive fields
    /// cannot run into each other ("ab" + "c" is not "a" + "bc").
    mutating func append(field text: String) {
        // By index over the contiguous bytes: iterating `String.UTF8View` steps its index type.
        let bytes = text.utf8.span
        for index in bytes.indices { append(bytes[index]) }
        append(0xFF)
    }

    /// An optional field: absent is one byte that no UTF-8 text holds, unlike an empty one.
    mutating func append(field text: String?) {
        guard let text else { return append(0xFE) }
        append(field: text)
    }

    /// The hash of the bytes appended; the hasher is spent.
    consuming func finalize() -> UInt64 {
        compress(pending | (count & 0xFF) << 56)
        v2 ^= 0xFF
        for _ in 0..<4 { round() }
        return v0 ^ v1 ^ v2 ^ v3
    }

    private mutating func compress(_ word: UInt64) {
        v3 ^= word
        round()
        round()
        v0 ^= word
    }

    private mutating func round() {
        v0 &+= v1
        v1 = v1.rotatedLeft(13) ^ v0
        v0 = v0.rotatedLeft(32)
        v2 &+= v3
        v3 = v3.rotatedLeft(16) ^ v2
        v0 &+= v3
        v3 = v3.rotatedLeft(21) ^ v0
        v2 &+= v1
        v1 = v1.rotatedLeft(17) ^ v2
        v2 = v2.rotatedLeft(32)
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(_ bits: UInt64) -> UInt64 {
        (self << bits) | (self >> (64 - bits))
    }
}
