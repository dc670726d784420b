/// One Unicode property of every code point, stored as runs: each entry packs the first code
/// point of a run (bits 5 and up) and the property's value there (the low 5 bits), in code point
/// order from U+0000. Swift's standard library has no Bidi_Class or Joining_Type, so the tables
/// are generated from the Unicode Character Database (`scripts/generate-unicode-tables`).
struct UnicodePropertyRuns: Sendable {
    static let valueBits: UInt32 = 5

    let packed: [UInt32]

    /// The value of the run holding `scalar` (binary search for the last run starting at or before it).
    func value(of scalar: Unicode.Scalar) -> UInt8 {
        let key = scalar.value << Self.valueBits | ((1 << Self.valueBits) - 1)
        var low = 0
        var high = packed.count
        while low < high {
            let middle = (low + high) / 2
            if packed[middle] <= key { low = middle + 1 } else { high = middle }
        }
        // packed[0] starts at U+0000, so some run always starts at or before the scalar.
        return UInt8(packed[low - 1] & ((1 << Self.valueBits) - 1))
    }
}
