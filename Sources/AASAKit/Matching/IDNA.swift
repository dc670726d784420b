internal import Foundation

/// Host names in the one form iOS compares: lower case, and every non-ASCII label as its IDNA 2008
/// A-label (`bücher.example` → `xn--bcher-kva.example`), so a domain and a URL match whichever way
/// either is written (an entitlement names an IDN by its Punycode A-label, the form DNS uses).
///
/// What is implemented of IDNA 2008 (RFC 5890–5893), since no library for it is available here:
/// lower-casing and NFC (Foundation) before anything else; labels split on `.` and the dots UTS 46
/// maps to it (`。`, `．`, `｡`); each non-ASCII label checked against RFC 5892's rules as far as
/// they follow from Unicode properties — letters, marks and digits only (`Ll`, `Lo`, `Lm`, `Mn`,
/// `Mc`, `Nd`) and hyphens, nothing that changes under NFKC case folding, the exceptions table of
/// section 2.6, no leading combining mark, no hyphen first, last or in positions 3–4, the CONTEXTJ
/// rules for the joiners U+200C and U+200D (``ContextJRule``) and the CONTEXTO rules for digits,
/// the middle dot, the Greek keraia, the Hebrew punctuation and the Katakana middle dot — then
/// encoded with Punycode (RFC 3492). An `xn--` label must decode to a label that passes the same
/// checks and encodes back to itself. A name with a right-to-left label must pass the Bidi rule
/// (RFC 5893, ``BidiRule``) in every label. ASCII labels are left as they are (lower-cased),
/// except that an empty label or one longer than 63 characters is refused. IP literals pass
/// unchanged.
///
/// Unicode versions: the standard library's properties (general category, NFKC case folding,
/// combining classes) are Unicode 16.0 in Swift 6.3, while the Bidi_Class and Joining_Type tables
/// come from Debian's unicode-data, Unicode 15.0 (``UnicodePropertyRuns/unicodeVersion``).
/// Decision: a label holding a code point that Unicode 15.0 does not assign is refused, because
/// neither rule can be checked for it (Garay, new in 16.0, is right-to-left), and IDNA 2008
/// derives validity per Unicode version, so under 15.0 such a code point is UNASSIGNED and
/// invalid anyway. Every code point the other checks accept and 15.0 assigns has its properties in
/// both sources; a later unicode-data only widens what is accepted (`scripts/generate-unicode-tables`).
public enum IDNA {
    /// The host in lower case with every label in ASCII (`xn--` for non-ASCII ones); a trailing dot
    /// is kept. Throws when a label is empty, too long or not a valid IDNA 2008 label.
    public static func asciiHost(_ host: String) throws(IDNAError) -> String {
        // IPv6 literals (the brackets already removed) and IPv4 addresses are not names. A colon
        // makes an IPv6 literal only with nothing but hex digits, colons and dots around it.
        if host.contains(":") {
            guard host.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit || $0 == ":" || $0 == "." }) else {
                throw IDNAError(host: host, reason: "it has a ':' but is not an IPv6 address")
            }
            return host.lowercased()
        }
        if isIPv4(host) { return host.lowercased() }
        let normalized = host.lowercased().precomposedStringWithCanonicalMapping
        var labels = normalized.split(omittingEmptySubsequences: false) { $0 == "." || $0 == "\u{3002}" || $0 == "\u{FF0E}" || $0 == "\u{FF61}" }
        let trailingDot = labels.count > 1 && labels.last?.isEmpty == true
        if trailingDot { labels.removeLast() }
        var ascii: [String] = []
        var unicodeLabels: [(given: String, scalars: [Unicode.Scalar])] = []
        for label in labels {
            let converted = try asciiLabel(String(label), host: host)
            ascii.append(converted.ascii)
            unicodeLabels.append((String(label), converted.unicode))
        }
        // RFC 5893: in a name with a right-to-left label, every label meets the Bidi rule.
        if unicodeLabels.contains(where: { BidiRule.isRightToLeft($0.scalars) }) {
            for label in unicodeLabels {
                guard let problem = BidiRule.problem(in: label.scalars) else { continue }
                let unicode = String(String.UnicodeScalarView(label.scalars))
                let shown = unicode == label.given ? "\"\(label.given)\"" : "\"\(label.given)\" (\"\(visible(unicode))\")"
                throw IDNAError(host: host, reason: "the label \(shown) \(problem)")
            }
        }
        return ascii.joined(separator: ".") + (trailingDot ? "." : "")
    }

    /// The label's ASCII form and the code points it stands for (the U-label of an `xn--` label).
    private static func asciiLabel(_ label: String, host: String) throws(IDNAError) -> (ascii: String, unicode: [Unicode.Scalar]) {
        func fail(_ reason: String) -> IDNAError { IDNAError(host: host, reason: reason) }
        guard !label.isEmpty else { throw fail("it has an empty label (two dots in a row, or a dot at the start)") }
        let scalars = Array(label.unicodeScalars)
        if scalars.allSatisfy(\.isASCII) {
            var unicode = scalars
            if label.hasPrefix("xn--") {
                guard let decoded = Punycode.decode(String(label.dropFirst(4))), decoded.contains(where: { !$0.isASCII }) else {
                    throw fail("the label \"\(label)\" starts with xn-- but is not valid Punycode for a non-ASCII label")
                }
                let text = String(String.UnicodeScalarView(decoded))
                if let problem = uLabelProblem(decoded) {
                    throw fail("the label \"\(label)\" stands for \"\(visible(text))\", which \(problem)")
                }
                guard text.precomposedStringWithCanonicalMapping == text, Punycode.encode(decoded).map({ "xn--" + $0 }) == label else {
                    throw fail("the label \"\(label)\" is not the A-label of \"\(visible(text))\" (it does not encode back to itself)")
                }
                unicode = decoded
            }
            guard label.utf8.count <= 63 else { throw fail("the label \"\(label)\" is longer than 63 characters") }
            return (label, unicode)
        }
        if let problem = uLabelProblem(scalars) { throw fail("the label \"\(label)\" \(problem)") }
        guard let encoded = Punycode.encode(scalars) else { throw fail("the label \"\(label)\" cannot be encoded") }
        let aLabel = "xn--" + encoded
        guard aLabel.utf8.count <= 63 else { throw fail("the label \"\(label)\" is \(aLabel.utf8.count) characters as \(aLabel), more than 63") }
        return (aLabel, scalars)
    }

    /// Why `label` (lower-cased, NFC) is not a valid IDNA 2008 U-label, or `nil`.
    static func uLabelProblem(_ label: [Unicode.Scalar]) -> String? {
        guard let first = label.first, let last = label.last else { return "is empty" }
        if first == "-" || last == "-" { return "starts or ends with a hyphen" }
        if label.count >= 4, label[2] == "-", label[3] == "-" { return "has hyphens in its third and fourth positions" }
        if isMark(first) { return "starts with a combining mark (U+\(hex(first)))" }
        for (position, scalar) in label.enumerated() {
            if let problem = scalarProblem(scalar, at: position, in: label) { return problem }
        }
        return nil
    }

    private static func scalarProblem(_ scalar: Unicode.Scalar, at position: Int, in label: [Unicode.Scalar]) -> String? {
        let name = Self.name(scalar)
        switch scalar.value {
        // RFC 5892 section 2.6: valid despite the rules below, and never valid despite them.
        case 0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007:
            return nil
        case 0x640, 0x7FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B:
            return "holds \(name), which IDNA 2008 does not allow"
        case 0x200C, 0x200D:
            return ContextJRule.problem(at: position, in: label)
        // CONTEXTO (RFC 5892 appendix A).
        case 0xB7:
            let between = position > 0 && position + 1 < label.count && label[position - 1] == "l" && label[position + 1] == "l"
            return between ? nil : "holds a middle dot (U+00B7) that is not between two l"
        case 0x375:
            return position + 1 < label.count && isGreek(label[position + 1]) ? nil : "holds a Greek keraia (U+0375) not followed by a Greek letter"
        case 0x5F3, 0x5F4:
            return position > 0 && (0x590...0x5FF).contains(label[position - 1].value) ? nil : "holds \(name) not after a Hebrew letter"
        case 0x30FB:
            return label.contains(where: isJapanese) ? nil : "holds a Katakana middle dot (U+30FB) in a label without Japanese letters"
        case 0x660...0x669:
            return label.contains { (0x6F0...0x6F9).contains($0.value) } ? "mixes Arabic-Indic and extended Arabic-Indic digits" : nil
        case 0x6F0...0x6F9:
            return label.contains { (0x660...0x669).contains($0.value) } ? "mixes Arabic-Indic and extended Arabic-Indic digits" : nil
        default:
            break
        }
        if scalar.isASCII {
            let valid = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "-"
            return valid ? nil : "holds \(name), which a host name cannot"
        }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber:
            break
        default:
            return "holds \(name), which IDNA 2008 does not allow (only letters, marks, digits and hyphens)"
        }
        if scalar.properties.changesWhenNFKCCaseFolded {
            return "holds \(name), which IDNA 2008 does not allow (it is a compatibility or case variant of another character)"
        }
        // See the type's comment on Unicode versions: every assigned code point has a Bidi_Class.
        if BidiClass(scalar) == nil {
            return "holds \(name), which is newer than Unicode \(UnicodePropertyRuns.unicodeVersion), the version linkhost checks the Bidi"
                + " and joiner rules with"
        }
        return nil
    }

    /// `U+00FC (ü)`, or `U+200D` alone for a character that does not print.
    static func name(_ scalar: Unicode.Scalar) -> String {
        isInvisible(scalar) ? "U+\(hex(scalar))" : "U+\(hex(scalar)) (\(String(scalar)))"
    }

    /// Controls, format characters, separators and unassigned code points, which a message must
    /// not print as they are.
    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// `text` with invisible scalars shown as U+FFFD.
    private static func visible(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { isInvisible($0) ? "\u{FFFD}" : $0 }))
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    private static func isGreek(_ scalar: Unicode.Scalar) -> Bool {
        (0x370...0x3FF).contains(scalar.value) || (0x1F00...0x1FFF).contains(scalar.value)
    }

    /// Hiragana, Katakana or Han, by block (the rule's script test, without a script table).
    private static func isJapanese(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value != 0x30FB else { return false }
        return (0x3040...0x30FF).contains(value) || (0x31F0...0x31FF).contains(value) || (0x3400...0x4DBF).contains(value)
            || (0x4E00...0x9FFF).contains(value) || (0xF900...0xFAFF).contains(value) || (0x20000...0x3134F).contains(value)
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// Why a host name is not a valid internationalised domain name; the message names the label.
public struct IDNAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The host as given.
    public let host: String
    /// What is wrong, naming the label: `the label "xn--zz" is not valid Punycode`.
    public let reason: String

    public init(host: String, reason: String) {
        self.host = host
        self.reason = reason
    }

    public var description: String { "\"\(host)\" is not a valid host name: \(reason)" }
}
