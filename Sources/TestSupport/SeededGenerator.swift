/// A small deterministic random generator (SplitMix64), so property and fuzz tests are repeatable.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A string of up to `maximumLength` characters drawn from `alphabet`.
    public mutating func string(from alphabet: [Character], maximumLength: Int) -> String {
        let length = Int.random(in: 0...maximumLength, using: &self)
        var text = ""
        for _ in 0..<length {
            if let character = alphabet.randomElement(using: &self) { text.append(character) }
        }
        return text
    }
}
