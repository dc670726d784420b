/// The IDNA 2008 Bidi rule (RFC 5893 section 2), which keeps a label from being displayed in an
/// order that makes it look like another name. It applies to every label of a "Bidi domain name",
/// one with at least one right-to-left label, ASCII labels included (RFC 5893 section 1.4).
///
/// Decision: a label is right-to-left when it holds any character of Bidi_Class R, AL or AN, as
/// RFC 5893 section 1.4 defines it, whatever its first character; so `aא` is a right-to-left
/// label holding a left-to-right letter (condition 2), not a left-to-right one holding a Hebrew
/// letter. Either reading refuses the same labels; this one names the condition the RFC means.
enum BidiRule {
    /// Whether `label` is a right-to-left label (it holds a character of class R, AL or AN).
    static func isRightToLeft(_ label: [Unicode.Scalar]) -> Bool {
        label.contains { BidiClass($0)?.isRightToLeft == true }
    }

    /// Which of the six conditions `label`, part of a Bidi domain name, breaks and how (text that
    /// follows `the label "…"`), or `nil` when it satisfies all of them.
    static func problem(in label: [Unicode.Scalar]) -> String? {
        let classes = label.map { BidiClass($0) }
        guard let first = label.first else { return nil }
        // Condition 1: the first character is a letter of a strong direction.
        guard let firstClass = classes[0], [.leftToRight, .rightToLeft, .arabicLetter].contains(firstClass) else {
            return "starts with \(described(first, classes[0])), but in a name with right-to-left labels every label must start with a letter"
                + " of class L, R or AL (RFC 5893, Bidi rule condition 1)"
        }
        if isRightToLeft(label) {
            return rightToLeftProblem(label, classes)
        }
        return leftToRightProblem(label, classes)
    }

    /// Conditions 2, 3 and 4.
    private static func rightToLeftProblem(_ label: [Unicode.Scalar], _ classes: [BidiClass?]) -> String? {
        let allowed: Set<BidiClass> = [
            .rightToLeft, .arabicLetter, .arabicNumber, .europeanNumber, .europeanSeparator, .commonSeparator, .europeanTerminator, .otherNeutral,
            .boundaryNeutral, .nonspacingMark,
        ]
        let witness = label.indices.first { classes[$0]?.isRightToLeft == true } ?? 0
        let direction = "is right-to-left (it holds \(described(label[witness], classes[witness])))"
        if let index = label.indices.first(where: { classes[$0].map { !allowed.contains($0) } ?? true }) {
            return "\(direction) but also holds \(described(label[index], classes[index])); a right-to-left label may hold only characters of class"
                + " R, AL, AN, EN, ES, CS, ET, ON, BN and NSM, so it cannot mix in left-to-right letters (RFC 5893, Bidi rule condition 2)"
        }
        if let index = lastNonMark(classes), ![.rightToLeft, .arabicLetter, .europeanNumber, .arabicNumber].contains(classes[index]) {
            return "\(direction) but ends with \(described(label[index], classes[index])); a right-to-left label must end with a character"
                + " of class R, AL, EN or AN, marks (NSM) after it aside (RFC 5893, Bidi rule condition 3)"
        }
        if let european = label.indices.first(where: { classes[$0] == .europeanNumber }),
            let arabic = label.indices.first(where: { classes[$0] == .arabicNumber })
        {
            return "\(direction) and mixes \(described(label[european], classes[european])) with \(described(label[arabic], classes[arabic]));"
                + " a right-to-left label may hold European (EN) or Arabic-Indic (AN) digits, not both (RFC 5893, Bidi rule condition 4)"
        }
        return nil
    }

    /// Conditions 5 and 6.
    private static func leftToRightProblem(_ label: [Unicode.Scalar], _ classes: [BidiClass?]) -> String? {
        let allowed: Set<BidiClass> = [
            .leftToRight, .europeanNumber, .europeanSeparator, .commonSeparator, .europeanTerminator, .otherNeutral, .boundaryNeutral,
            .nonspacingMark,
        ]
        if let index = label.indices.first(where: { classes[$0].map { !allowed.contains($0) } ?? true }) {
            return "is left-to-right but holds \(described(label[index], classes[index])); in a name with right-to-left labels a left-to-right"
                + " label may hold only characters of class L, EN, ES, CS, ET, ON, BN and NSM (RFC 5893, Bidi rule condition 5)"
        }
        if let index = lastNonMark(classes), ![.leftToRight, .europeanNumber].contains(classes[index]) {
            return "is left-to-right and ends with \(described(label[index], classes[index])); in a name with right-to-left labels a"
                + " left-to-right label must end with a character of class L or EN, marks (NSM) after it aside (RFC 5893, Bidi rule condition 6)"
        }
        return nil
    }

    /// The last character that is not a nonspacing mark, by index.
    private static func lastNonMark(_ classes: [BidiClass?]) -> Int? {
        classes.indices.last { classes[$0] != .nonspacingMark }
    }

    /// `U+05D0 (א), of class R`.
    private static func described(_ scalar: Unicode.Scalar, _ bidiClass: BidiClass?) -> String {
        "\(IDNA.name(scalar)), of class \(bidiClass?.abbreviation ?? "unknown")"
    }
}
