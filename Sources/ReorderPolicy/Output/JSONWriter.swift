/// A small, fast JSON writer with a fixed key order, so machine output is stable byte for byte.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// The output as text.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends raw JSON or punctuation.
    @inline(__always)
    public mutating func raw(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends a string literal, escaped.
    public mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 0x0A: bytes.append(contentsOf: [92, 110])
            case 0x0D: bytes.append(contentsOf: [92, 114])
            case 0x09: bytes.append(contentsOf: [92, 116])
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends an integer.
    @inline(__always)
    public mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            bytes.append(UInt8(48 + value))
            return
        }
        var v = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(48 + v % 10)
                v /= 10
                count += 1
            } while v > 0
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// Appends `true` or `false`.
    public mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Appends `"key": ` (a comma first unless `first`).
    public mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { raw(", ") }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        raw("\": ")
    }

    /// Appends raw bytes.
    public mutating func append(buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }

    /// Appends bytes already rendered elsewhere.
    public mutating func append(_ other: JSONWriter) { bytes += other.bytes }

    /// Drops the buffer (after writing it out).
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }
}
