/// How an exchange whose record is in the journal ended, written into the record's header as one
/// 8-byte word once the response went out (or did not): the duration in microseconds (40 bits), the
/// outcome (8 bits) and a check (16 bits) over both and the record's sequence, so a word half
/// written when the process died reads as no completion at all.
public struct JournalCompletion: Sendable, Equatable {
    public enum Outcome: UInt8, Sendable {
        /// The whole response was handed to the kernel.
        case sent = 1
        /// The exchange ended before the response was sent in full.
        case cutShort = 2
    }

    public var outcome: Outcome
    public var durationMicroseconds: UInt64

    public init(outcome: Outcome, durationMicroseconds: UInt64) {
        self.outcome = outcome
        self.durationMicroseconds = min(durationMicroseconds, Self.durationMask)
    }

    private static let durationMask: UInt64 = (1 << 40) - 1

    /// The word for the record of `sequence`.
    func word(sequence: UInt64) -> UInt64 {
        let body = durationMicroseconds | UInt64(outcome.rawValue) << 40
        return body | UInt64(Self.check(body, sequence)) << 48
    }

    /// The completion a stored word holds, `nil` for none (zero) or a torn one.
    init?(word: UInt64, sequence: UInt64) {
        let body = word & ((1 << 48) - 1)
        guard word != 0, UInt16(truncatingIfNeeded: word >> 48) == Self.check(body, sequence),
            let outcome = Outcome(rawValue: UInt8(truncatingIfNeeded: body >> 40))
        else { return nil }
        self.outcome = outcome
        durationMicroseconds = body & Self.durationMask
    }

    private static func check(_ body: UInt64, _ sequence: UInt64) -> UInt16 {
        var value = (body ^ (sequence &* 0x9E37_79B9_7F4A_7C15)) &* 0xC2B2_AE3D_27D4_EB4F
        value ^= value >> 29
        return UInt16(truncatingIfNeeded: value ^ (value >> 16) ^ (value >> 32)) | 1
    }
}
