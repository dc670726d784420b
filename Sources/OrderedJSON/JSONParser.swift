/// A strict RFC 8259 parser that keeps object members in order.
///
/// It never traps on hostile input: nesting is bounded, every byte is bounds-checked, strings must be
/// valid UTF-8, and the error names the line, column and JSON path of the problem.
public struct JSONParser: Sendable {
    /// What to do when an object names the same key twice. linkhost's one rule for duplicate keys:
    ///
    /// - Files written for linkhost (the config, the page strings) use `.reject`: a duplicate is
    ///   almost always a copy-paste mistake, and the error names the key's JSON path.
    /// - AASA files use `.keepAll` and are read the way Apple's parser reads them: the **last**
    ///   occurrence wins (`swcd` reads the file with Foundation's `JSONSerialization`, which fills an
    ///   `NSDictionary`, where a later key replaces an earlier one), and `linkhost check` warns
    ///   about each duplicate (AASA005). `JSONValue[key]` and `lastOccurrences` read that way.
    public enum DuplicateKeyPolicy: Sendable {
        /// Fail with an error at the second occurrence of the key.
        case reject
        /// Keep every member as written, so a linter can still see the duplicates.
        case keepAll
    }

    public var duplicateKeys: DuplicateKeyPolicy
    /// Deepest nesting accepted; deeper documents are an error rather than a stack overflow.
    public var maximumDepth: Int
    /// Whether a leading UTF-8 byte order mark is skipped (RFC 8259 lets parsers ignore it) or refused.
    public var allowsByteOrderMark: Bool

    public init(duplicateKeys: DuplicateKeyPolicy = .reject, maximumDepth: Int = 256, allowsByteOrderMark: Bool = false) {
        self.duplicateKeys = duplicateKeys
        self.maximumDepth = maximumDepth
        self.allowsByteOrderMark = allowsByteOrderMark
    }

    /// Parses one complete JSON document.
    public func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var reader = Reader(bytes: bytes, options: self)
        return try reader.parseDocument()
    }

    /// Parses one complete JSON document from a string.
    public func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct Reader {
    let bytes: [UInt8]
    let options: JSONParser
    var position = 0
    var path: [JSONPath.Step] = []

    init(bytes: [UInt8], options: JSONParser) {
        self.bytes = bytes
        self.options = options
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            guard options.allowsByteOrderMark else {
                throw error("the document starts with a UTF-8 byte order mark; save the file as UTF-8 without BOM")
            }
            position = 3
        }
        skipWhitespace()
        guard position < bytes.count else { throw error("the document is empty; expected a JSON value") }
        let value = try parseValue(depth: 0)
        skipWhitespace()
        if position < bytes.count {
            throw error("unexpected \(describe(bytes[position])) after the end of the JSON value")
        }
        return value
    }

    // MARK: values

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < options.maximumDepth else {
            let found = error("nesting deeper than \(options.maximumDepth) levels")
            throw JSONSyntaxError(
                message: found.message, offset: found.offset, line: found.line, column: found.column, path: found.path, kind: .nestingTooDeep)
        }
        guard position < bytes.count else { throw error("unexpected end of document; expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "'"): throw error("strings must use double quotes, not single quotes")
        case UInt8(ascii: "/"): throw error("comments are not allowed in JSON")
        default: throw error("unexpected \(describe(bytes[position])); expected a value (object, array, string, number, true, false or null)")
        }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        position += 1  // {
        var members: [JSONMember] = []
        var seen = Set<String>()
        skipWhitespace()
        if peek(UInt8(ascii: "}")) {
            position += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of document inside an object; expected a member name") }
            guard bytes[position] == UInt8(ascii: "\"") else {
                if bytes[position] == UInt8(ascii: "}") { throw error("trailing comma before '}'; remove the last ','") }
                throw error("unexpected \(describe(bytes[position])); member names must be strings in double quotes")
            }
            let keyOffset = position
            let key = try parseString()
            if !seen.insert(key).inserted, options.duplicateKeys == .reject {
                position = keyOffset
                path.append(.key(key))
                throw error("the key \"\(key)\" appears twice in this object; keep one")
            }
            skipWhitespace()
            guard peek(UInt8(ascii: ":")) else { throw error("expected ':' after the member name \"\(key)\"") }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            let value = try parseValue(depth: depth + 1)
            path.removeLast()
            members.append(JSONMember(key, value))
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of document; expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            throw error("unexpected \(describe(bytes[position])) after the value of \"\(key)\"; expected ',' or '}'")
        }
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        position += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) {
            position += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            if peek(UInt8(ascii: "]")) { throw error("trailing comma before ']'; remove the last ','") }
            let value = try parseValue(depth: depth + 1)
            path.removeLast()
            elements.append(value)
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of document; expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            throw error("unexpected \(describe(bytes[position])) after an array element; expected ',' or ']'")
        }
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
        let openingQuote = position
        position += 1
        // Text without escapes (nearly every string) becomes a string straight from the document's
        // bytes; a string with escapes is assembled as UTF-8 bytes, its escapes encoded in place.
        // (Appending to a `String.UnicodeScalarView` cost an app open's report more than the
        // rest of its parsing.)
        // Every escape adds at least one byte, so an empty `assembled` means none was met.
        var assembled: [UInt8] = []
        var runStart = position
        while true {
            guard position < bytes.count else {
                throw errorAt(openingQuote, "this string is never closed; add the missing '\"'")
            }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let run = bytes[runStart..<position]
                position += 1
                guard !assembled.isEmpty else { return String(decoding: run, as: UTF8.self) }
                assembled.append(contentsOf: run)
                return String(decoding: assembled, as: UTF8.self)
            case UInt8(ascii: "\\"):
                assembled.append(contentsOf: bytes[runStart..<position])
                position += 1
                let scalar = try parseEscape()
                UTF8.encode(scalar) { assembled.append($0) }
                runStart = position
            case 0x00..<0x20:
                throw error("a control character (\(describe(byte))) inside a string must be escaped")
            case 0x00..<0x80:
                position += 1
            default:
                position += try validatedUTF8SequenceLength(at: position)
            }
        }
    }

    mutating func parseEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard position < bytes.count else { throw error("unexpected end of document inside an escape sequence") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHex4()
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    throw error("a \\u escape opens a UTF-16 surrogate pair that is not completed")
                }
                position += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error("a \\u escape opens a UTF-16 surrogate pair that is not completed")
                }
                let combined = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
                return Unicode.Scalar(combined)!
            }
            guard let scalar = Unicode.Scalar(first) else {
                throw error("a \\u escape names a lone UTF-16 surrogate")
            }
            return scalar
        default:
            position -= 2
            throw error("\\\(describe(byte, quoted: false)) is not a JSON escape; use \\\\ for a backslash")
        }
    }

    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard position < bytes.count else { throw error("unexpected end of document inside a \\u escape") }
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("a \\u escape needs four hexadecimal digits")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    /// Length of the well-formed UTF-8 sequence starting at `index`, or an error naming the bad byte.
    func validatedUTF8SequenceLength(at index: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[index]
        let length: Int
        var lowerBound: UInt8 = 0x80
        var upperBound: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lowerBound = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            upperBound = 0x9F
        case 0xF0:
            length = 4
            lowerBound = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upperBound = 0x8F
        default: throw errorAt(index, "the byte 0x\(hex(lead)) is not valid UTF-8; save the file as UTF-8")
        }
        guard index + length <= bytes.count else {
            throw errorAt(index, "a UTF-8 sequence is cut off by the end of the document")
        }
        for offset in 1..<length {
            let continuation = bytes[index + offset]
            let low = offset == 1 ? lowerBound : 0x80
            let high = offset == 1 ? upperBound : 0xBF
            guard continuation >= low, continuation <= high else {
                throw errorAt(index, "the bytes at this point are not valid UTF-8; save the file as UTF-8")
            }
        }
        return length
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONNumber {
        let start = position
        if peek(UInt8(ascii: "-")) { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("a '-' must be followed by digits") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw error("numbers must not have leading zeros")
            }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if peek(UInt8(ascii: ".")) {
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("a decimal point must be followed by digits") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("an exponent must have digits") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        return JSONNumber(validatedLiteral: String(decoding: bytes[start..<position], as: UTF8.self))
    }

    mutating func expectLiteral(_ literal: String) throws(JSONSyntaxError) {
        let expected = Array(literal.utf8)
        guard position + expected.count <= bytes.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw error("unexpected \(describe(bytes[position])); expected a value (did you mean \(literal)?)")
        }
        position += expected.count
    }

    // MARK: helpers

    func peek(_ byte: UInt8) -> Bool { position < bytes.count && bytes[position] == byte }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func error(_ message: String) -> JSONSyntaxError { errorAt(position, message) }

    func errorAt(_ offset: Int, _ message: String) -> JSONSyntaxError {
        var line = 1
        var column = 1
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                column = 1
            } else if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        return JSONSyntaxError(message: message, offset: offset, line: line, column: column, path: JSONPath(steps: path))
    }

    func describe(_ byte: UInt8, quoted: Bool = true) -> String {
        if byte >= 0x21 && byte < 0x7F {
            let character = String(UnicodeScalar(byte))
            return quoted ? "'\(character)'" : character
        }
        return "byte 0x\(hex(byte))"
    }

    func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
