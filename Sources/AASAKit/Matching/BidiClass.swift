/// A code point's Bidi_Class (Unicode Standard Annex #9), which the IDNA 2008 Bidi rule (RFC 5893)
/// is written in. Raw values are the order `scripts/generate-unicode-tables` numbers them in.
enum BidiClass: UInt8, Sendable {
    case leftToRight  // L
    case rightToLeft  // R
    case arabicLetter  // AL
    case europeanNumber  // EN
    case europeanSeparator  // ES
    case europeanTerminator  // ET
    case arabicNumber  // AN
    case commonSeparator  // CS
    case nonspacingMark  // NSM
    case boundaryNeutral  // BN
    case paragraphSeparator  // B
    case segmentSeparator  // S
    case whiteSpace  // WS
    case otherNeutral  // ON
    case leftToRightEmbedding  // LRE
    case leftToRightOverride  // LRO
    case rightToLeftEmbedding  // RLE
    case rightToLeftOverride  // RLO
    case popDirectionalFormat  // PDF
    case leftToRightIsolate  // LRI
    case rightToLeftIsolate  // RLI
    case firstStrongIsolate  // FSI
    case popDirectionalIsolate  // PDI

    /// The class of `scalar` in Unicode ``UnicodePropertyRuns/unicodeVersion``, or `nil` when that
    /// version does not assign the code point.
    init?(_ scalar: Unicode.Scalar) {
        self.init(rawValue: UnicodePropertyRuns.bidiClasses.value(of: scalar))
    }

    /// The short name RFC 5893 and UAX #9 use (`R`, `AL`, `EN`).
    var abbreviation: String {
        switch self {
        case .leftToRight: "L"
        case .rightToLeft: "R"
        case .arabicLetter: "AL"
        case .europeanNumber: "EN"
        case .europeanSeparator: "ES"
        case .europeanTerminator: "ET"
        case .arabicNumber: "AN"
        case .commonSeparator: "CS"
        case .nonspacingMark: "NSM"
        case .boundaryNeutral: "BN"
        case .paragraphSeparator: "B"
        case .segmentSeparator: "S"
        case .whiteSpace: "WS"
        case .otherNeutral: "ON"
        case .leftToRightEmbedding: "LRE"
        case .leftToRightOverride: "LRO"
        case .rightToLeftEmbedding: "RLE"
        case .rightToLeftOverride: "RLO"
        case .popDirectionalFormat: "PDF"
        case .leftToRightIsolate: "LRI"
        case .rightToLeftIsolate: "RLI"
        case .firstStrongIsolate: "FSI"
        case .popDirectionalIsolate: "PDI"
        }
    }

    /// R, AL or AN: what makes a label right-to-left (RFC 5893 section 1.4).
    var isRightToLeft: Bool { self == .rightToLeft || self == .arabicLetter || self == .arabicNumber }
}
