/// Punycode (RFC 3492): the Bootstring encoding that writes a Unicode label in the letters, digits
/// and hyphens a DNS name can hold, as IDNA's `xn--` labels do. Written from the RFC's pseudocode
/// (sections 6.1–6.3) with its parameters; every step is checked for overflow against a 32-bit
/// maximum, as the RFC asks, so hostile input fails instead of trapping.
package enum Punycode {
    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 128
    private static let maxInt = Int(Int32.max)

    /// The Punycode text of `input` (without `xn--`), or `nil` when a count would overflow.
    /// Basic (ASCII) code points are copied as they are; digits are written in lower case.
    package static func encode(_ input: [Unicode.Scalar]) -> String? {
        var output: [Unicode.Scalar] = input.filter(\.isASCII)
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < input.count {
            // The smallest code point not yet handled.
            guard let next = input.lazy.map({ Int($0.value) }).filter({ $0 >= n }).min() else { return nil }
            guard next - n <= (maxInt - delta) / (handled + 1) else { return nil }
            delta += (next - n) * (handled + 1)
            n = next
            for scalar in input {
                let value = Int(scalar.value)
                if value < n {
                    delta += 1
                    guard delta <= maxInt else { return nil }
                }
                guard value == n else { continue }
                var q = delta
                var k = base
                while true {
                    let t = threshold(k, bias: bias)
                    if q < t { break }
                    output.append(digit(t + (q - t) % (base - t)))
                    q = (q - t) / (base - t)
                    k += base
                }
                output.append(digit(q))
                bias = adapt(delta, count: handled + 1, first: handled == basicCount)
                delta = 0
                handled += 1
            }
            delta += 1
            n += 1
        }
        return String(String.UnicodeScalarView(output))
    }

    /// The code points `text` (without `xn--`) stands for, or `nil` when it is not valid Punycode:
    /// a non-basic character before the last hyphen, a character that is no digit, a count that
    /// overflows, a result that is no Unicode scalar, or input that ends inside a number.
    package static func decode(_ text: String) -> [Unicode.Scalar]? {
        let input = Array(text.unicodeScalars)
        guard input.allSatisfy(\.isASCII) else { return nil }
        let delimiter = input.lastIndex(of: "-") ?? 0
        var output = Array(input[..<delimiter])
        var position = delimiter > 0 ? delimiter + 1 : 0
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < input.count {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard position < input.count, let value = digitValue(input[position]) else { return nil }
                position += 1
                guard value <= (maxInt - i) / w else { return nil }
                i += value * w
                let t = threshold(k, bias: bias)
                if value < t { break }
                guard w <= maxInt / (base - t) else { return nil }
                w *= base - t
                k += base
            }
            let length = output.count + 1
            bias = adapt(i - oldI, count: length, first: oldI == 0)
            guard i / length <= maxInt - n else { return nil }
            n += i / length
            i %= length
            // Decoded code points must be non-basic and real scalars (no surrogates, at most U+10FFFF).
            guard n >= initialN, let scalar = Unicode.Scalar(UInt32(n)) else { return nil }
            output.insert(scalar, at: i)
            i += 1
        }
        return output
    }

    private static func threshold(_ k: Int, bias: Int) -> Int {
        if k <= bias { return tMin }
        if k >= bias + tMax { return tMax }
        return k - bias
    }

    /// Bias adaptation (RFC 3492 section 6.1).
    private static func adapt(_ delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + ((base - tMin + 1) * delta) / (delta + skew)
    }

    /// 0–25 are `a`–`z`, 26–35 are `0`–`9`.
    private static func digit(_ value: Int) -> Unicode.Scalar {
        Unicode.Scalar(UInt8(value < 26 ? 0x61 + value : 0x30 + value - 26))
    }

    /// A digit's value, upper- or lower-case letters alike; `nil` for anything else.
    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar.value {
        case 0x30...0x39: Int(scalar.value) - 0x30 + 26
        case 0x41...0x5A: Int(scalar.value) - 0x41
        case 0x61...0x7A: Int(scalar.value) - 0x61
        default: nil
        }
    }
}
