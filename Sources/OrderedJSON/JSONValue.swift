/// A JSON value that keeps object members in document order.
///
/// Foundation's `JSONSerialization` loses key order and escapes `/` as `\/`; linkhost serves AASA
/// files people read by eye and compare with documentation, so members stay in the order written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The value of the member named `key` when this is an object; `nil` otherwise. A repeated key
    /// reads as its last occurrence (see `JSONParser.DuplicateKeyPolicy`).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The object's members, or `nil` when this is not an object.
    public var objectMembers: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The array's elements, or `nil` when this is not an array.
    public var arrayElements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string, or `nil` when this is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The Boolean, or `nil` when this is not a Boolean.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number, or `nil` when this is not a number.
    public var numberValue: JSONNumber? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// A short name of the value's type for error messages ("a string", "an object", ...).
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}

extension Array where Element == JSONMember {
    /// Each key once, at the place of its last occurrence: an object's members as a reader that
    /// follows the duplicate-key rule sees them (see `JSONParser.DuplicateKeyPolicy`).
    public var lastOccurrences: [JSONMember] {
        var lastIndex: [String: Int] = [:]
        for (position, member) in enumerated() { lastIndex[member.key] = position }
        guard lastIndex.count < count else { return self }
        return enumerated().filter { lastIndex[$0.element.key] == $0.offset }.map(\.element)
    }
}

/// A JSON number kept as its literal text, so serialising it again gives back the same digits.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number as written in the document (already validated as JSON number syntax).
    public let literal: String

    /// Wraps an integer.
    public init(_ value: Int) { literal = String(value) }

    /// Wraps a finite floating-point value, written as an integer when it is whole (`6`, `0.25`).
    public init(_ value: Double) {
        precondition(value.isFinite, "JSON has no infinite or NaN numbers")
        if value == value.rounded(), abs(value) < 9.0e15 {
            literal = String(Int(value))
        } else {
            literal = "\(value)"
        }
    }

    /// Wraps literal text that the parser has checked.
    init(validatedLiteral: String) { literal = validatedLiteral }

    /// The value as a `Double` (JSON numbers have no separate integer type).
    public var doubleValue: Double { Double(literal) ?? .nan }

    /// The value as an `Int` when it is written as a whole number that fits.
    public var intValue: Int? {
        if let exact = Int(literal) { return exact }
        let double = doubleValue
        guard double.isFinite, double.rounded() == double, abs(double) < 9.0e15 else { return nil }
        return Int(double)
    }

    public var description: String { literal }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(JSONNumber(value)) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
}
