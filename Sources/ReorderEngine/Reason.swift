/// A reason in plain words, rendered once, as it is built, into UTF-8 bytes.
///
/// Reasons are built from ``Part``s (text, row ids, positions, sections) through string
/// interpolation; each part is written as text straight away, so a decision's reason is one
/// small byte buffer: building it is one allocation, destroying it one release, and output
/// copies (or escapes) it in one go instead of part by part (issue #26: a batch's refused
/// moves spent a third of their time building, destroying and writing reasons as arrays of
/// parts).
public struct Reason: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One piece of a reason, and how it reads.
    public enum Part: Hashable, Sendable {
        /// Literal text.
        case text(String)
        /// A row id, shown in double quotes: `"Blue"`.
        case quoted(String)
        /// A position, shown `s.r`.
        case position(Position)
        /// A number.
        case number(Int)
        /// A section, shown `section 1 ("Doing")` or `section 1`.
        case section(Int, id: String?)
    }

    /// The reason as UTF-8 text.
    package private(set) var utf8: ContiguousArray<UInt8>

    /// Creates a reason from parts.
    public init(_ parts: [Part]) {
        var text = StringInterpolation(literalCapacity: 0, interpolationCount: parts.count)
        for part in parts { text.appendInterpolation(part) }
        utf8 = text.utf8
    }

    /// A reason that is plain text.
    public init(_ text: String) {
        var built = StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        built.appendText(text)
        utf8 = built.utf8
    }

    /// A reason that is a literal.
    public init(stringLiteral value: StaticString) {
        var built = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        built.appendLiteral(value)
        utf8 = built.utf8
    }

    /// The reason as text.
    public var description: String { String(decoding: utf8, as: UTF8.self) }

    /// Appends one part, as it reads.
    public mutating func append(_ part: Part) { append(Reason([part])) }

    /// Appends another reason's text.
    public mutating func append(_ reason: Reason) { utf8.append(contentsOf: reason.utf8) }

    /// Joins reasons with `; `.
    static func joined(_ reasons: [Reason]) -> Reason {
        var joined: Reason = ""
        for (n, r) in reasons.enumerated() {
            if n > 0 { joined.append(.text("; ")) }
            joined.append(r)
        }
        return joined
    }
}

extension Reason: ExpressibleByStringInterpolation {
    /// Builds reasons from interpolations of positions, numbers, row ids, sections and text,
    /// each rendered as it is appended: into 128 bytes kept inline (a reason's usual length)
    /// and, past them, an array; the reason gets the bytes in one allocation. Literals are
    /// static strings, so appending one copies its bytes and nothing else.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        public typealias StringLiteralType = StaticString

        private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                             UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        private var count = 0
        /// The text once it outgrows `inline` (then `inline` is unused).
        private var spilled: ContiguousArray<UInt8>? = nil

        public init(literalCapacity: Int, interpolationCount: Int) {}

        @inline(__always)
        private mutating func append(_ source: UnsafePointer<UInt8>, _ n: Int) {
            guard spilled == nil && count &+ n <= 128 else { return spill(source, n) }
            withUnsafeMutableBytes(of: &inline) { _ShortCopy.copy(source, to: $0.baseAddress! + count, count: n) }
            count &+= n
        }

        private mutating func spill(_ source: UnsafePointer<UInt8>, _ n: Int) {
            if spilled == nil {
                var array = ContiguousArray<UInt8>()
                array.reserveCapacity(2 * (count + n))
                withUnsafeBytes(of: inline) { array.append(contentsOf: $0.prefix(count)) }
                spilled = array
            }
            spilled!.append(contentsOf: UnsafeBufferPointer(start: source, count: n))
        }

        @inline(__always)
        private mutating func append(_ byte: UInt8) {
            withUnsafePointer(to: byte) { append($0, 1) }
        }

        @inline(__always)
        private mutating func append(_ literal: StaticString) {
            append(literal.utf8Start, literal.utf8CodeUnitCount)
        }

        private mutating func append(_ s: String) {
            // In place, small strings (a row id's usual size) included: `withUTF8` needs a
            // mutable copy of the string, a retain and a release.
            let copied: Void? = s.utf8.withContiguousStorageIfAvailable { if let base = $0.baseAddress { append(base, $0.count) } }
            if copied == nil {
                var s = s
                s.withUTF8 { if let base = $0.baseAddress { append(base, $0.count) } }
            }
        }

        private mutating func append(_ n: Int) {
            if n >= 0 && n < 10 { return append(UInt8(truncatingIfNeeded: 48 &+ n)) }
            if spilled == nil && count &+ 21 <= 128 {
                // Room for any number: its digits written in place.
                let at = count
                count &+= withUnsafeMutableBytes(of: &inline) { _Decimal.write(n, to: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + at) }
                return
            }
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            withUnsafeMutableBytes(of: &digits) { buffer in
                let text = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)  // 24 bytes have an address
                append(text, _Decimal.write(n, to: text))
            }
        }

        private mutating func append(_ part: Part) {
            switch part {
            case .text(let t): append(t)
            case .quoted(let id):
                append(UInt8(ascii: "\""))
                append(id)
                append(UInt8(ascii: "\""))
            case .position(let p):
                append(p.section)
                append(UInt8(ascii: "."))
                append(p.row)
            case .number(let n): append(n)
            case .section(let u, let id):
                append("section " as StaticString)
                append(u)
                if let id {
                    append(" (\"" as StaticString)
                    append(id)
                    append("\")" as StaticString)
                }
            }
        }

        /// Calls `body` with the text written so far, in place (`mutating` only so that the
        /// inline bytes are not copied to be read).
        @inline(__always)
        fileprivate mutating func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            if let spilled { return spilled.withUnsafeBufferPointer(body) }
            let n = count
            return withUnsafeMutableBytes(of: &inline) { body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) }
        }

        /// Appends bytes of text.
        fileprivate mutating func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let base = bytes.baseAddress { append(base, bytes.count) }
        }

        /// The text written so far, in one allocation.
        fileprivate var utf8: ContiguousArray<UInt8> {
            if let spilled { return spilled }
            var array = ContiguousArray<UInt8>()
            guard count > 0 else { return array }
            // `reserveCapacity` is specialized for bytes; `init(unsafeUninitializedCapacity:)`
            // looked up the storage class at run time, a third of building a reason.
            array.reserveCapacity(count)
            withUnsafeBytes(of: inline) { array.append(contentsOf: UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)) }
            return array
        }

        public mutating func appendLiteral(_ literal: StaticString) { append(literal) }
        public mutating func appendInterpolation(_ part: Part) { append(part) }
        public mutating func appendInterpolation(_ reason: Reason) {
            reason.utf8.withUnsafeBufferPointer { if let base = $0.baseAddress { append(base, $0.count) } }
        }
        public mutating func appendInterpolation(_ position: Position) {
            append(position.section)
            append(UInt8(ascii: "."))
            append(position.row)
        }
        public mutating func appendInterpolation(_ number: Int) { append(number) }
        public mutating func appendInterpolation(_ text: String) { append(text) }
        /// Appends text (not a literal).
        mutating func appendText(_ text: String) { append(text) }
    }

    public init(stringInterpolation: StringInterpolation) { utf8 = stringInterpolation.utf8 }
}

/// A reason as a rule words it: its text where the interpolation that built it wrote it (up to
/// 128 bytes inline), so that wording a verdict allocates nothing (past 128 bytes the text
/// spills into an array, and a unit that joins several reasons, `capacity`, builds them). A
/// ``Reason`` keeps the text (one allocation); output that writes it at once (a batch's JSON,
/// ``BoundPolicy/outline(_:)``) reads it in place (issue #26: building, keeping and freeing a
/// reason per refused move was a sixth of deciding a refused-heavy batch).
package struct WordedReason: ExpressibleByStringInterpolation, Sendable {
    package typealias StringInterpolation = Reason.StringInterpolation
    private var text: Reason.StringInterpolation

    package init(stringInterpolation: Reason.StringInterpolation) { text = stringInterpolation }

    /// An empty reason, to be worded into.
    package init() { text = StringInterpolation(literalCapacity: 0, interpolationCount: 0) }

    package init(stringLiteral value: StaticString) {
        text = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        text.appendLiteral(value)
    }

    /// The text of a reason already kept.
    package init(_ reason: Reason) {
        text = StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        text.appendInterpolation(reason)
    }

    /// The reason, kept.
    package var reason: Reason { Reason(stringInterpolation: text) }

    /// Appends more text.
    package mutating func append(_ more: WordedReason) {
        var more = more
        more.withUTF8 { text.appendBytes($0) }
    }

    /// Calls `body` with the text as UTF-8, in place (`mutating` only so that it is not
    /// copied to be read).
    package mutating func withUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        text.withBytes(body)
    }
}
