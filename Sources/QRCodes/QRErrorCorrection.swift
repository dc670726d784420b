/// How much of a QR code may be damaged or covered and still read: the more, the larger the code.
public enum QRErrorCorrection: String, Sendable, CaseIterable {
    /// About 7 % of the code may be lost.
    case low = "L"
    /// About 15 %: the usual choice for screens and clean prints, and linkhost's default.
    case medium = "M"
    /// About 25 %.
    case quartile = "Q"
    /// About 30 %, for codes that get worn, folded or overprinted.
    case high = "H"
}
