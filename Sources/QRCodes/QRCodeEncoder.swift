import CQRencode
import Glibc
import Synchronization

/// The only code that touches libqrencode: text in, modules out.
enum QRCodeEncoder {
    /// Debian's libqrencode is built with pthreads and guards its shared tables with a mutex (its
    /// symbols import pthread_mutex_lock), but that is a build option; one lock here makes the
    /// wrapper safe on any build, and costs nothing that matters: callers cache the results.
    private static let lock = Mutex(())

    static func encode(_ text: String, correction: QRErrorCorrection) throws(QRCodeError) -> QRCode {
        guard !text.isEmpty else { throw .empty }
        guard !text.utf8.contains(0) else { throw .containsNUL }
        let level: QRecLevel =
            switch correction {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        let result: (symbol: QRCode?, error: Int32) = lock.withLock { _ in
            // Version 0 lets the library pick the smallest version that fits; QR_MODE_8 with case
            // sensitivity keeps the text exactly as given while still using shorter modes where
            // a run of digits or capitals allows.
            guard let code = QRcode_encodeString(text, 0, level, QR_MODE_8, 1) else { return (nil, errno) }
            defer { QRcode_free(code) }
            let width = Int(code.pointee.width)
            let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
            // Bit 0 of each byte is the module's colour; the other bits describe its role.
            return (QRCode(size: width, modules: data.map { $0 & 1 == 1 }), 0)
        }
        if let symbol = result.symbol { return symbol }
        if result.error == ERANGE { throw .tooLong(bytes: text.utf8.count, correction: correction) }
        throw .encoderFailed(result.error)
    }
}

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
