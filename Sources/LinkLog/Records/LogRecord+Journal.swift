/// A record as the hit journal holds it: the values of `HitTable.recordFields` in order, integers
/// as 8 little-endian bytes, texts as a 2-byte length and their UTF-8 (0xFFFF for `nil`), the
/// tracked parameters as a 2-byte count and their names and values. Texts are capped first
/// (`capText`), so a length always fits in two bytes and the journal holds only what the log does.
/// The journal is a local file one linkhost writes and reads back, so the layout carries no version
/// of its own: a journal of another format is refused whole (`JournalError.otherVersion`).
extension LogRecord {
    /// The longest text a journal record carries: under the 2-byte length's 0xFFFF, which means `nil`.
    package static let journalTextLimit = 65_000

    private static let noText: UInt16 = 0xFFFF

    /// Bytes `encodeForJournal` writes. The texts must be capped to `journalTextLimit`; capping
    /// (`capText`) returns this too, which is how the request path gets it.
    package var journalSize: Int {
        var copy = self
        return copy.capText(to: .max)
    }

    /// Writes the record into `buffer`, exactly `journalSize` bytes.
    package func encodeForJournal(into buffer: UnsafeMutableRawBufferPointer) {
        var writer = JournalBytesWriter(buffer)
        withUnsafePointer(to: self) { record in
            for field in HitTable.recordFields {
                switch field {
                case .integer(let offset): writer.integer(record.field(at: offset, as: Int64.self).pointee)
                case .int(let offset): writer.integer(Int64(record.field(at: offset, as: Int.self).pointee))
                case .text(let offset): writer.text(record.field(at: offset, as: String.self).pointee)
                case .optionalText(let offset):
                    if let text = record.field(at: offset, as: String?.self).pointee { writer.text(text) } else { writer.length(Self.noText) }
                case .parameters(let offset):
                    let parameters = record.field(at: offset, as: [(name: String, value: String)].self).pointee
                    writer.length(UInt16(min(parameters.count, Int(Self.noText) - 1)))
                    for parameter in parameters.prefix(Int(Self.noText) - 1) {
                        writer.text(parameter.name)
                        writer.text(parameter.value)
                    }
                case .rowID, .keptByWriter: break
                }
            }
        }
    }

    /// The record a journal payload holds; `nil` when the bytes do not hold one whole (the journal's
    /// checksum makes that a record of another build's layout, never a torn one).
    package init?(journalPayload bytes: UnsafeRawBufferPointer) {
        var reader = JournalBytesReader(bytes)
        var record = LogRecord.empty
        let complete = withUnsafeMutablePointer(to: &record) { record -> Bool in
            for field in HitTable.recordFields {
                switch field {
                case .integer(let offset):
                    guard let value = reader.integer() else { return false }
                    record.field(at: offset, as: Int64.self).pointee = value
                case .int(let offset):
                    guard let value = reader.integer() else { return false }
                    record.field(at: offset, as: Int.self).pointee = Int(value)
                case .text(let offset):
                    guard let text = reader.text(), let value = text else { return false }
                    record.field(at: offset, as: String.self).pointee = value
                case .optionalText(let offset):
                    guard let text = reader.text() else { return false }
                    record.field(at: offset, as: String?.self).pointee = text
                case .parameters(let offset):
                    guard let count = reader.length(), count != Self.noText else { return false }
                    var parameters: [(name: String, value: String)] = []
                    parameters.reserveCapacity(Int(count))
                    for _ in 0..<count {
                        guard let name = reader.text(), let name, let value = reader.text(), let value else { return false }
                        parameters.append((name, value))
                    }
                    record.field(at: offset, as: [(name: String, value: String)].self).pointee = parameters
                case .rowID, .keptByWriter: break
                }
            }
            return reader.isAtEnd
        }
        guard complete else { return nil }
        self = record
    }
}

/// Writes a journal payload front to back.
private struct JournalBytesWriter {
    let buffer: UnsafeMutableRawBufferPointer
    var offset = 0

    init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    mutating func integer(_ value: Int64) {
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: Int64.self)
        offset += 8
    }

    mutating func length(_ value: UInt16) {
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt16.self)
        offset += 2
    }

    mutating func text(_ value: String) {
        // Native and small strings lend their bytes in place (no copy of the string, as `withUTF8`
        // on a `var` makes); a bridged one, which linkhost never makes, is copied byte by byte.
        let written = value.utf8.withContiguousStorageIfAvailable { bytes in
            buffer.storeBytes(of: UInt16(bytes.count).littleEndian, toByteOffset: offset, as: UInt16.self)
            if bytes.count > 0 { (buffer.baseAddress! + offset + 2).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
            return bytes.count
        }
        if let written {
            offset += 2 + written
            return
        }
        length(UInt16(value.utf8.count))
        for byte in value.utf8 {
            buffer.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
    }
}

/// Reads a journal payload front to back; each read is `nil` past the end.
private struct JournalBytesReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func integer() -> Int64? {
        guard offset + 8 <= bytes.count else { return nil }
        defer { offset += 8 }
        return Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self))
    }

    mutating func length() -> UInt16? {
        guard offset + 2 <= bytes.count else { return nil }
        defer { offset += 2 }
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }

    /// A text: `.some(nil)` for the `nil` mark, `nil` past the end.
    mutating func text() -> String?? {
        guard let count = length() else { return nil }
        if count == 0xFFFF { return .some(nil) }
        guard offset + Int(count) <= bytes.count else { return nil }
        defer { offset += Int(count) }
        return .some(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + Int(count))]), as: UTF8.self))
    }
}
