/// Why text could not be made into a QR code.
public enum QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text is empty; a QR code of nothing scans as nothing.
    case empty
    /// The text holds a NUL character, which the encoder cannot take.
    case containsNUL
    /// More bytes than the largest QR code (version 40) holds at this error correction.
    case tooLong(bytes: Int, correction: QRErrorCorrection)
    /// libqrencode failed for another reason (its errno).
    case encoderFailed(Int32)

    public var description: String {
        switch self {
        case .empty: "there is no text to encode"
        case .containsNUL: "the text holds a NUL character"
        case .tooLong(let bytes, let correction):
            "\(bytes) bytes are more than the largest QR code holds at error correction \(correction.rawValue)"
        case .encoderFailed(let code): "libqrencode failed (errno \(code))"
        }
    }
}
