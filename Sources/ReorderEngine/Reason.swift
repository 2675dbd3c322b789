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
        utf8 = text.bytes.utf8
    }

    /// A reason that is plain text.
    public init(_ text: String) {
        var built = StringInterpolation(literalCapacity: 0, interpolationCount: 1)
        built.appendText(text)
        utf8 = built.bytes.utf8
    }

    /// A reason that is a literal.
    public init(stringLiteral value: StaticString) {
        var built = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        built.appendLiteral(value)
        utf8 = built.bytes.utf8
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
    /// each rendered as it is appended into `ReasonBytes` (128 bytes inline, then an array);
    /// the reason gets the bytes in one allocation. Literals are static strings, so appending
    /// one copies its bytes and nothing else.
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        public typealias StringLiteralType = StaticString
        package var bytes = ReasonBytes()

        public init(literalCapacity: Int, interpolationCount: Int) {}

        @inline(__always) public mutating func appendLiteral(_ literal: StaticString) { bytes.append(literal) }
        public mutating func appendInterpolation(_ part: Part) { bytes.append(part, json: false) }
        public mutating func appendInterpolation(_ reason: Reason) {
            reason.utf8.withUnsafeBufferPointer { if let base = $0.baseAddress { bytes.append(base, $0.count) } }
        }
        public mutating func appendInterpolation(_ position: Position) { bytes.append(position) }
        public mutating func appendInterpolation(_ number: Int) { bytes.append(number) }
        public mutating func appendInterpolation(_ text: String) { bytes.append(text, json: false) }
        /// Appends text (not a literal).
        mutating func appendText(_ text: String) { bytes.append(text, json: false) }
        package mutating func appendInterpolation(_ name: RowName) { bytes.append(name, json: false) }
        package mutating func appendInterpolation(_ name: SectionName) { bytes.append(name, json: false) }
    }

    public init(stringInterpolation: StringInterpolation) { utf8 = stringInterpolation.bytes.utf8 }
}

/// The bytes of a reason as it is worded, each part written as text as it is appended: into
/// 128 bytes kept inline (a reason's usual length) and, past them, an array. As plain text
/// (``Reason``, ``WordedReason``) or as the content of a JSON string (``JSONWordedReason``).
package struct ReasonBytes: Sendable {
    private var inline: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                         UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    /// The text once it outgrows `inline` (then `inline` is unused).
    private var spilled: ContiguousArray<UInt8>? = nil

    init() {}

    @inline(__always)
    mutating func append(_ source: UnsafePointer<UInt8>, _ n: Int) {
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
    mutating func append(_ byte: UInt8) {
        withUnsafePointer(to: byte) { append($0, 1) }
    }

    /// Appends a literal of the wording. Its bytes are never escaped: in a reason worded for
    /// JSON, debug builds check that it has none to escape (quotes come from the parts that
    /// show ids, which escape them).
    @inline(__always)
    mutating func append(_ literal: StaticString, json: Bool = false) {
        assert(!json || !UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount).contains(where: _JSONEscape.isNeeded),
               "a literal of a reason with a byte JSON escapes: show it through a part")
        append(literal.utf8Start, literal.utf8CodeUnitCount)
    }

    /// Appends text that is data (an id, a name), escaped for a JSON string when `json`, and
    /// in quotes when `quoted` (`"A"`, or `\"A\"` for JSON).
    @inline(__always)
    mutating func append(_ s: String, json: Bool, quoted: Bool = false) {
        // In place, small strings (a row id's usual size) included: `withUTF8` needs a
        // mutable copy of the string, a retain and a release.
        let copied: Void? = s.utf8.withContiguousStorageIfAvailable { append(data: $0, json: json, quoted: quoted) }
        if copied == nil {
            var s = s
            s.withUTF8 { append(data: $0, json: json, quoted: quoted) }
        }
    }

    @inline(__always)
    private mutating func append(data: UnsafeBufferPointer<UInt8>, json: Bool, quoted: Bool) {
        if let base = data.baseAddress {
            append(data: base, data.count, json: json, quoted: quoted)
        } else if quoted {  // an empty id
            appendQuote(json: json)
            appendQuote(json: json)
        }
    }

    /// ``append(_:json:quoted:)`` of `n` bytes: the usual id (nothing to escape, room left
    /// inline) in one store of quotes and bytes; anything else piece by piece.
    @inline(__always)
    private mutating func append(data source: UnsafePointer<UInt8>, _ n: Int, json: Bool, quoted: Bool) {
        if json {
            var k = 0
            while k < n && !_JSONEscape.isNeeded(source[k]) { k &+= 1 }
            if k < n { return appendPieces(source, n, json: json, quoted: quoted) }
        }
        let quote = !quoted ? 0 : json ? 2 : 1
        guard spilled == nil && count &+ n &+ 2 &* quote <= 128 else { return appendPieces(source, n, json: json, quoted: quoted) }
        let at = count
        withUnsafeMutableBytes(of: &inline) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + at
            if quote == 2 {
                p[0] = 92; p[1] = 34; p[n &+ 2] = 92; p[n &+ 3] = 34
            } else if quote == 1 {
                p[0] = 34; p[n &+ 1] = 34
            }
            _ShortCopy.copy(source, to: p + quote, count: n)
        }
        count = at &+ n &+ 2 &* quote
    }

    private mutating func appendPieces(_ source: UnsafePointer<UInt8>, _ n: Int, json: Bool, quoted: Bool) {
        if quoted { appendQuote(json: json) }
        if json { appendEscaped(source, n) } else { append(source, n) }
        if quoted { appendQuote(json: json) }
    }

    /// Appends `n` bytes of text escaped for a JSON string: the runs that need no escape
    /// whole, each byte that does as ``_JSONEscape`` writes it.
    private mutating func appendEscaped(_ source: UnsafePointer<UInt8>, _ n: Int) {
        var start = 0
        for k in 0..<n where _JSONEscape.isNeeded(source[k]) {
            append(source + start, k &- start)
            var sequence: UInt64 = 0
            withUnsafeMutableBytes(of: &sequence) { buffer in
                let length = _JSONEscape.sequence(source[k], at: buffer.baseAddress!)
                append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), length)
            }
            start = k &+ 1
        }
        append(source + start, n &- start)
    }

    /// Appends `n` bytes of text, escaped for a JSON string when `json`.
    mutating func append(_ source: UnsafePointer<UInt8>, _ n: Int, json: Bool) {
        append(data: source, n, json: json, quoted: false)
    }

    /// A quote around an id: `\"` in a reason worded for JSON.
    @inline(__always)
    mutating func appendQuote(json: Bool) {
        if json { append("\\\"" as StaticString) } else { append(UInt8(ascii: "\"")) }
    }

    /// Appends `n` in decimal: in place while there is room for any number (a reason's
    /// positions and counts, inlined: a call per number was 60 instructions for one or two
    /// digits, issue #26), else through ``appendDigits(_:)``.
    @inline(__always)
    mutating func append(_ n: Int) {
        guard spilled == nil && count &+ 21 <= 128 else { return appendDigits(n) }
        let at = count
        count &+= withUnsafeMutableBytes(of: &inline) { _Decimal.write(n, to: $0.baseAddress!.assumingMemoryBound(to: UInt8.self) + at) }
    }

    private mutating func appendDigits(_ n: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            let text = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)  // 24 bytes have an address
            append(text, _Decimal.write(n, to: text))
        }
    }

    /// Appends `s.r`, in place in one go while there is room for any position.
    @inline(__always)
    mutating func append(_ position: Position) {
        guard spilled == nil && count &+ 43 <= 128 else {
            appendDigits(position.section)
            append(UInt8(ascii: "."))
            return appendDigits(position.row)
        }
        var at = count
        withUnsafeMutableBytes(of: &inline) { raw in
            let p = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
            at &+= _Decimal.write(position.section, to: p + at)
            p[at] = UInt8(ascii: ".")
            at &+= 1
            at &+= _Decimal.write(position.row, to: p + at)
        }
        count = at
    }

    @inline(__always)
    mutating func append(_ part: Reason.Part, json: Bool) {
        switch part {
        case .text(let t): append(t, json: json)
        case .quoted(let id): append(id, json: json, quoted: true)
        case .position(let p): append(p)
        case .number(let n): append(n)
        case .section(let u, let id): appendSection(u, id: id, json: json)
        }
    }

    /// Appends a row's id, quoted, read where the binding keeps it.
    @inline(__always)
    mutating func append(_ name: RowName, json: Bool) {
        append(name.bound.pointee.rowID(at: name.position), json: json, quoted: true)
    }

    /// Appends `section 1 ("Doing")`, or `section 1` for a section without an id.
    @inline(__always)
    mutating func append(_ name: SectionName, json: Bool) {
        appendSection(name.section, id: name.bound.pointee.sectionID(name.section), json: json)
    }

    /// `section 1 ("Doing")`, or `section 1` without an id.
    @inline(__always)
    private mutating func appendSection(_ u: Int, id: String?, json: Bool) {
        append("section " as StaticString)
        append(u)
        if let id {
            append(" (" as StaticString)
            append(id, json: json, quoted: true)
            append(")" as StaticString)
        }
    }

    /// Calls `body` with the text written so far, in place (`mutating` only so that the
    /// inline bytes are not copied to be read).
    @inline(__always)
    mutating func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let spilled { return spilled.withUnsafeBufferPointer(body) }
        let n = count
        return withUnsafeMutableBytes(of: &inline) { body(UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n)) }
    }

    /// The text written so far, in one allocation.
    var utf8: ContiguousArray<UInt8> {
        if let spilled { return spilled }
        var array = ContiguousArray<UInt8>()
        guard count > 0 else { return array }
        // `reserveCapacity` is specialized for bytes; `init(unsafeUninitializedCapacity:)`
        // looked up the storage class at run time, a third of building a reason.
        array.reserveCapacity(count)
        withUnsafeBytes(of: inline) { array.append(contentsOf: UnsafeBufferPointer(start: $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)) }
        return array
    }
}

/// What a rule words a reason into (``CompiledRowRuleKind/word(_:into:)``): plain text,
/// ``WordedReason``, or the same text as the content of a JSON string, ``JSONWordedReason``,
/// which a batch's JSON output copies as it is instead of escaping it byte by byte (issue
/// #26: escaping a refused move's reason was an eighth of deciding a batch). A unit words
/// once, generically, and `@_specialize`s its wording for both.
package protocol ReasonText: ExpressibleByStringInterpolation
where StringInterpolation: ReasonInterpolation, StringLiteralType == StaticString {
    /// The text as worded.
    var text: StringInterpolation { get set }
    /// An empty reason, to be worded into.
    init()
    /// Calls `body` with the text as UTF-8, in place.
    mutating func withUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void)
}

extension ReasonText {
    package init(stringLiteral value: StaticString) {
        self.init()
        text.appendLiteral(value)
    }

    /// The text of a reason already kept.
    package init(_ reason: Reason) {
        self.init()
        text.appendInterpolation(reason)
    }

    /// Appends more text.
    package mutating func append(_ more: Self) {
        var more = more
        more.withUTF8 { if let base = $0.baseAddress { text.bytes.append(base, $0.count) } }
    }
}

/// What a reason's wording interpolates (the same for plain and JSON text; only how ids and
/// other data are written differs).
package protocol ReasonInterpolation: StringInterpolationProtocol where StringLiteralType == StaticString {
    mutating func appendInterpolation(_ part: Reason.Part)
    mutating func appendInterpolation(_ reason: Reason)
    mutating func appendInterpolation(_ position: Position)
    mutating func appendInterpolation(_ number: Int)
    mutating func appendInterpolation(_ text: String)
    mutating func appendInterpolation(_ name: RowName)
    mutating func appendInterpolation(_ name: SectionName)
    /// The text written so far.
    var bytes: ReasonBytes { get set }
}

/// A row's id as a reason shows it, `"A"`: where the binding keeps it, read as the reason is
/// written. Valid only while the wording it is made for lasts (``RowCheck``'s binding). A
/// ``Reason/Part`` holds the id itself: making one and destroying it, with a retain and a
/// release, cost more than writing the id (issue #26).
package struct RowName {
    let bound: UnsafePointer<BoundPolicy>
    let position: Position
}

/// A section as a reason shows it, `section 1 ("Doing")` or `section 1`, read as ``RowName``
/// reads a row's id.
package struct SectionName {
    let bound: UnsafePointer<BoundPolicy>
    let section: Int
}

extension Reason.StringInterpolation: ReasonInterpolation {}

/// A reason as a rule words it: its text where the interpolation that built it wrote it (up to
/// 128 bytes inline), so that wording a verdict allocates nothing (past 128 bytes the text
/// spills into an array, and a unit that joins several reasons, `capacity`, builds them). A
/// ``Reason`` keeps the text (one allocation) where a decision needs one (``BoundPolicy/decide(_:)``);
/// a batch's JSON words into ``JSONWordedReason`` instead and keeps nothing (issue #26:
/// building, keeping and freeing a reason per refused move was a sixth of deciding a
/// refused-heavy batch).
package struct WordedReason: ReasonText, Sendable {
    package typealias StringInterpolation = Reason.StringInterpolation
    // No default value: with one, `init(stringInterpolation:)` (every `reason = "…"`) zeroed
    // the text, then copied the new text over it (+2 % instructions a batch, session 31).
    package var text: StringInterpolation

    package init() { text = StringInterpolation(literalCapacity: 0, interpolationCount: 0) }

    package init(stringInterpolation: StringInterpolation) { text = stringInterpolation }

    /// Calls `body` with the text as UTF-8, in place (`mutating` only so that it is not
    /// copied to be read).
    package mutating func withUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) { text.bytes.withBytes(body) }

    /// The reason, kept.
    package var reason: Reason { Reason(stringInterpolation: text) }
}

/// A reason worded as the content of a JSON string: the text of ``WordedReason`` with its ids,
/// names and other data escaped as they are appended and its quotes written `\"`; literals
/// are copied as they are (they have nothing to escape: debug builds check). A batch's JSON
/// output copies it into a string without scanning it (issue #26).
package struct JSONWordedReason: ReasonText, Sendable {
    package struct StringInterpolation: ReasonInterpolation, Sendable {
        package typealias StringLiteralType = StaticString
        package var bytes = ReasonBytes()

        package init(literalCapacity: Int, interpolationCount: Int) {}

        @inline(__always) package mutating func appendLiteral(_ literal: StaticString) { bytes.append(literal, json: true) }
        package mutating func appendInterpolation(_ part: Reason.Part) { bytes.append(part, json: true) }
        package mutating func appendInterpolation(_ reason: Reason) {
            reason.utf8.withUnsafeBufferPointer { if let base = $0.baseAddress { bytes.append(base, $0.count, json: true) } }
        }
        package mutating func appendInterpolation(_ position: Position) { bytes.append(position) }
        package mutating func appendInterpolation(_ number: Int) { bytes.append(number) }
        package mutating func appendInterpolation(_ text: String) { bytes.append(text, json: true) }
        package mutating func appendInterpolation(_ name: RowName) { bytes.append(name, json: true) }
        package mutating func appendInterpolation(_ name: SectionName) { bytes.append(name, json: true) }
    }

    package var text: StringInterpolation

    package init() { text = StringInterpolation(literalCapacity: 0, interpolationCount: 0) }

    package init(stringInterpolation: StringInterpolation) { text = stringInterpolation }

    /// Calls `body` with the text as UTF-8, in place (`mutating` only so that it is not
    /// copied to be read).
    package mutating func withUTF8(_ body: (UnsafeBufferPointer<UInt8>) -> Void) { text.bytes.withBytes(body) }
}
