/// Byte comparison whose time does not depend on where two secrets differ, so a client timing
/// failed attempts learns nothing about a key.
package enum ConstantTimeComparison {
    /// True when `a` and `b` are the same bytes. Runs over every byte of `expected`'s length
    /// whatever `presented` holds; only the key's length can be learnt, not its content.
    @inline(never)
    package static func equal(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt(bitPattern: presented.count ^ expected.count)
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : 0
            difference |= UInt(byte ^ expected[index])
        }
        return difference == 0
    }
}
