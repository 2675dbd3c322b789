/// A JSON text (RFC 8259, read strictly) held as its bytes and a *tape*: one token per value,
/// in document order, each with its byte range and where its subtree ends. Decision requests
/// are JSON and this is their one reader (the server's hot path): one pass over the bytes, no
/// event stream, no node tree, no string until a decoder asks for one. Its nodes
/// (``JSONNode``) are ``DocumentNode``s, so the table and moves decoders that read files read
/// requests too; ``parse(_:file:maxDepth:)`` gives the same ``YAMLNode`` tree libyaml gives
/// for the same text, spans included (strings are double-quoted scalars; numbers, `true`,
/// `false` and `null` plain ones).
///
/// SPEC §4's limits hold here as in every file: nesting deeper than `maxDepth` is
/// `too-deep`, invalid UTF-8 and anything that is not JSON is `yaml-syntax`, a key twice in
/// one object is `duplicate-key`. Reading stops at the first problem.
public struct JSONDocument: Sendable {
    /// One value on the tape.
    @usableFromInline struct Token: Sendable {
        @usableFromInline enum Kind: UInt8, Sendable { case object, array, string, number, literal }
        @usableFromInline var kind: Kind
        /// A string with a backslash escape: decoded on access.
        @usableFromInline var escaped = false
        /// A number that is an integer of at most nine digits: its value is `count32`, read
        /// as an `Int32` (a position's numbers, an offset), so decoding it reads no bytes.
        @usableFromInline var small = false
        /// A string with a byte outside ASCII (its text is compared as a `String` for repeats).
        @usableFromInline var nonASCII = false
        // 32-bit offsets keep a token at 20 bytes (bodies are far below 2 GiB; `read` checks).
        @usableFromInline var start32: UInt32
        @usableFromInline var end32: UInt32
        @usableFromInline var next32: UInt32
        @usableFromInline var count32: UInt32 = 0

        /// First byte (a string's opening quote).
        @inlinable var start: Int { Int(start32) }
        /// Just past the last byte.
        @inlinable var end: Int { Int(end32) }
        /// The tape index just past this value's subtree.
        @inlinable var next: Int { Int(next32) }
        /// Items of an array, entries of an object.
        @inlinable var count: Int { Int(count32) }
        /// A small number's value (see ``small``).
        @inlinable var smallValue: Int { Int(Int32(bitPattern: count32)) }

        init(kind: Kind, escaped: Bool = false, start: Int, end: Int, next: Int) {
            self.kind = kind
            self.escaped = escaped
            self.start32 = UInt32(truncatingIfNeeded: start)
            self.end32 = UInt32(truncatingIfNeeded: end)
            self.next32 = UInt32(truncatingIfNeeded: next)
        }
    }

    /// Immutable once read; owns the bytes and the tape its nodes point into.
    ///
    /// Nodes hold plain pointers, not a reference: a reference counted per node cost a retain
    /// and a release for every row of every request (perf: about a sixth of decoding a 1,000-row
    /// table). So a node is valid only while its document lives, which ``JSONDocument/withRoot(_:)``
    /// guarantees for the nodes it hands out.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline let bytes: UnsafeMutableBufferPointer<UInt8>
        @usableFromInline let tape: UnsafeMutablePointer<Token>
        let marks: MarkTable

        init(bytes source: [UInt8], tape: UnsafeMutablePointer<Token>, marks: MarkTable) {
            bytes = .allocate(capacity: source.count)
            _ = bytes.initialize(from: source)
            self.tape = tape
            self.marks = marks
        }

        deinit {
            bytes.deallocate()
            tape.deallocate()
        }

        @usableFromInline var place: JSONNode.Place {
            JSONNode.Place(tape: UnsafePointer(tape), bytes: UnsafeBufferPointer(bytes), storage: Unmanaged.passUnretained(self))
        }
    }

    let storage: Storage

    /// Calls `body` with the root value. The nodes are valid only inside `body`: they point
    /// into the document, which `body` must not let them outlive.
    public func withRoot<R, E: Error>(_ body: (JSONNode) throws(E) -> R) throws(E) -> R {
        defer { withExtendedLifetime(storage) {} }
        return try body(JSONNode(storage.place, index: 0))
    }

    /// Reads `bytes`, or gives the first problem.
    public static func read(_ bytes: [UInt8], file: String, maxDepth: Int = YAMLLimits.policy.maxDepth) -> Result<JSONDocument, Diagnostic> {
        var readAtOnce = (pairs: 0, moves: 0)
        return read(bytes, file: file, maxDepth: maxDepth, atOnce: true, readAtOnce: &readAtOnce)
    }

    /// `atOnce: false` reads every value through the general path; `readAtOnce` counts the
    /// positions and the moves read at once (``Reader/pairOfIntegers(depth:)``,
    /// ``Reader/moveAtOnce(depth:)``). For tests: both paths must give the same document and
    /// the same problems.
    static func read(_ bytes: [UInt8], file: String, maxDepth: Int, atOnce: Bool, readAtOnce: inout (pairs: Int, moves: Int)) -> Result<JSONDocument, Diagnostic> {
        guard bytes.count < Int(UInt32.max) else {
            return .failure(Diagnostic(code: .tooLarge, message: "a JSON text of \(bytes.count) bytes is larger than 4 GiB", file: file, span: Span(at: .start)))
        }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer, maxDepth: maxDepth, atOnce: atOnce)
            defer { readAtOnce = (reader.pairsRead, reader.movesRead) }
            do throws(Reader.Problem) {
                try reader.document()
                return .success(JSONDocument(storage: Storage(bytes: bytes, tape: reader.tape.base, marks: reader.marks(bytes))))
            } catch {
                reader.tape.base.deallocate()
                let marks = reader.marks(bytes)
                let span = Span(start: marks.mark(error.start ?? error.at), end: marks.mark(error.at))
                return .failure(Diagnostic(code: error.code, message: error.message, file: file, span: span))
            }
        }
    }

    /// Reads `bytes` into a ``YAMLNode`` tree, or gives the first problem.
    public static func parse(_ bytes: [UInt8], file: String, maxDepth: Int = YAMLLimits.policy.maxDepth) -> Result<YAMLNode, Diagnostic> {
        read(bytes, file: file, maxDepth: maxDepth).map { $0.withRoot(\.tree) }
    }

    /// Byte offsets to marks: lines, and Unicode scalars counted as libyaml counts them.
    struct MarkTable: Sendable {
        /// Byte offset where each line starts (line 1 first).
        var lineStarts: [Int]
        /// UTF-8 continuation bytes before every 4,096th byte; empty for an ASCII text.
        var continuationCheckpoints: [Int]
        let bytes: [UInt8]

        /// The scalar offset of byte `b`.
        func scalars(before b: Int) -> Int {
            guard !continuationCheckpoints.isEmpty else { return b }
            let k = min(b >> 12, continuationCheckpoints.count - 1)
            var continuations = continuationCheckpoints[k]
            var i = k << 12
            while i < b {
                if bytes[i] & 0xC0 == 0x80 { continuations += 1 }
                i += 1
            }
            return b - continuations
        }

        func mark(_ b: Int) -> Mark {
            // The last line starting at or before b.
            var lo = 0, hi = lineStarts.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if lineStarts[mid] <= b { lo = mid } else { hi = mid - 1 }
            }
            let offset = scalars(before: b)
            return Mark(line: lo + 1, column: offset - scalars(before: lineStarts[lo]) + 1, offset: offset)
        }
    }

    /// The tape while it is written: a growing buffer that ``Storage`` takes over whole (the
    /// reader deallocates it when reading fails). Not copyable: it owns its buffer, and a copy
    /// that grew would leave the other pointing at freed memory.
    struct Tape: ~Copyable {
        private(set) var base: UnsafeMutablePointer<Token>
        private(set) var count = 0
        private var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        @inline(__always)
        mutating func append(_ token: Token) {
            if count == capacity { grow(to: capacity * 2) }
            (base + count).initialize(to: token)
            count += 1
        }

        /// Room for `extra` more tokens, which ``appendReserved(_:)`` then writes unchecked.
        @inline(__always)
        mutating func reserve(_ extra: Int) {
            if count &+ extra > capacity { grow(to: Swift.max(capacity * 2, count + extra)) }
        }

        /// Appends a token into room ``reserve(_:)`` made.
        @inline(__always)
        mutating func appendReserved(_ token: Token) {
            assert(count < capacity, "a token appended past the room reserved")
            (base + count).initialize(to: token)
            count &+= 1
        }

        private mutating func grow(to newCapacity: Int) {
            let grown = UnsafeMutablePointer<Token>.allocate(capacity: newCapacity)
            grown.moveInitialize(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }

        /// Drops the tokens from `count` on (a quick read that gave up).
        mutating func truncate(to count: Int) {
            self.count = Swift.min(self.count, count)
        }

        subscript(_ i: Int) -> Token {
            get { base[i] }
            nonmutating set { base[i] = newValue }
        }
    }

    /// One pass over the bytes into the tape.
    struct Reader: ~Copyable {
        struct Problem: Error {
            var code: DiagnosticCode
            var message: String
            /// Where the problem starts, when it is not just at ``at``.
            var start: Int?
            var at: Int
        }

        /// Valid only inside the `withUnsafeBufferPointer` call of `JSONDocument.read(_:file:maxDepth:atOnce:readAtOnce:)`.
        let bytes: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var i = 0
        var tape: Tape
        var lineStarts = [0]
        var ascii = true

        /// Whether an object's `[a, b]` value and a list's move item are read at once
        /// (``pairOfIntegers(depth:)``, ``moveAtOnce(depth:)``).
        let atOnce: Bool
        /// How many values ``pairOfIntegers(depth:)`` read, and how many items
        /// ``moveAtOnce(depth:)`` read (for tests).
        var pairsRead = 0, movesRead = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int, atOnce: Bool = true) {
            self.bytes = bytes
            self.maxDepth = maxDepth
            self.atOnce = atOnce
            // A guess, not a bound: a batch's move item (`{"from": [5, 50], "to": [2, 83]}, `)
            // is nine values in 33 to 36 bytes, and a quarter of the bytes grew the tape once,
            // copying it whole, at the end of a 1,000-move batch. (A list of bare numbers,
            // `[0,0,...]`, still grows it.)
            tape = Tape(capacity: bytes.count / 3 &+ 16)
        }

        func marks(_ bytes: [UInt8]) -> MarkTable {
            var checkpoints: [Int] = []
            if !ascii {
                var continuations = 0
                for (k, b) in bytes.enumerated() {
                    if k & 0xFFF == 0 { checkpoints.append(continuations) }
                    if b & 0xC0 == 0x80 { continuations += 1 }
                }
            }
            return MarkTable(lineStarts: lineStarts, continuationCheckpoints: checkpoints, bytes: bytes)
        }

        mutating func document() throws(Problem) {
            // A byte order mark may open the text (RFC 8259 §8.1); libyaml skips it too.
            i = ByteOrderMark.length(bytes)
            if i > 0 { ascii = false }
            skipSpace()
            try value(depth: 0)
            skipSpace()
            guard i == bytes.count else { throw problem(.yamlSyntax, "unexpected \(found) after the JSON value") }
        }

        func problem(_ code: DiagnosticCode, _ message: String, from start: Int? = nil) -> Problem {
            Problem(code: code, message: message, start: start, at: i)
        }

        /// What stands at the reading position, for messages.
        var found: String {
            guard i < bytes.count else { return "end of input" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            return b < 0x80 ? "byte 0x\(String(b, radix: 16, uppercase: true))" : "a non-ASCII character"
        }

        /// A bit test, not a `switch` (nor `==`s, which the optimizer makes one): a switch is
        /// an indirect jump through a table, mispredicted between a value and the space after a
        /// comma (a seventh of reading a list of row ids).
        @inline(__always)
        mutating func skipSpace() {
            var k = i
            defer { i = k }
            let blanks: UInt64 = 1 << 0x20 | 1 << 0x09 | 1 << 0x0D
            while k < bytes.count {
                let b = bytes[k]
                if b > 0x20 { return }  // most often: no space at all
                if blanks & (1 << UInt64(b)) != 0 {
                    k += 1
                } else if b == 0x0A {
                    k += 1
                    lineStarts.append(k)
                } else {
                    return
                }
            }
        }

        mutating func value(depth: Int) throws(Problem) {
            guard i < bytes.count else { throw problem(.yamlSyntax, "expected a JSON value, found end of input") }
            switch bytes[i] {
            case UInt8(ascii: "{"): try object(depth: depth + 1)
            case UInt8(ascii: "["): try array(depth: depth + 1)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
            default: throw problem(.yamlSyntax, "expected a JSON value, found \(found)")
            }
        }

        private mutating func open(_ kind: Token.Kind, depth: Int) throws(Problem) -> Int {
            guard depth <= maxDepth else { throw problem(.tooDeep, "nesting deeper than \(maxDepth) levels") }
            tape.append(Token(kind: kind, start: i, end: i, next: 0))
            i += 1
            skipSpace()
            return tape.count - 1
        }

        private mutating func close(_ token: Int, count: Int) {
            i += 1
            tape[token].end32 = UInt32(truncatingIfNeeded: i)
            tape[token].next32 = UInt32(truncatingIfNeeded: tape.count)
            tape[token].count32 = UInt32(truncatingIfNeeded: count)
        }

        private mutating func object(depth: Int) throws(Problem) {
            let token = try open(.object, depth: depth)
            if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return close(token, count: 0) }
            // The object's keys are found on the tape (each key's value ends where the next key
            // starts), so a small object allocates nothing; a large one keeps a set of names.
            var count = 0
            var names: Set<String> = []
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw problem(.yamlSyntax, "expected an object key (a double-quoted string), found \(found)")
                }
                try string()
                if count > 0 { try checkRepeated(key: tape.count - 1, object: token, count: count, names: &names) }
                count += 1
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw problem(.yamlSyntax, "expected ':' after an object key, found \(found)") }
                i += 1
                skipSpace()
                if !(atOnce && pairOfIntegers(depth: depth + 1)) { try value(depth: depth) }
                skipSpace()
                guard i < bytes.count else { throw problem(.yamlSyntax, "expected ',' or '}' in an object, found end of input") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "}") else { throw problem(.yamlSyntax, "expected ',' or '}' in an object, found \(found)") }
                return close(token, count: count)
            }
        }

        /// SPEC §4: a key once per object. `key` is the `count`-th key of the object whose token
        /// is `object`; the earlier ones are on the tape, each after the previous key's value.
        /// Small objects compare bytes; large ones keep a set.
        private func checkRepeated(key: Int, object: Int, count: Int, names: inout Set<String>) throws(Problem) {
            let t = tape[key]
            var repeated: Int?
            if count < 16 {
                var k = object + 1
                for _ in 0..<count {
                    let u = tape[k]
                    // Keys are the same when their texts are equal as `String`s (canonical
                    // equivalence), as in a large object and in YAML. Plain ASCII keys are equal
                    // only byte for byte, so those of different lengths differ at once (most
                    // keys of a small object).
                    let same = !u.escaped && !t.escaped && !u.nonASCII && !t.nonASCII
                        ? u.end - u.start == t.end - t.start && bytes[u.start..<u.end].elementsEqual(bytes[t.start..<t.end])
                        : text(u) == text(t)
                    if same {
                        repeated = k
                        break
                    }
                    k = tape[k + 1].next
                }
            } else {
                var k = object + 1
                if names.isEmpty {
                    for _ in 0..<count {
                        names.insert(text(tape[k]))
                        k = tape[k + 1].next
                    }
                }
                let name = text(t)
                if !names.insert(name).inserted {
                    k = object + 1
                    while text(tape[k]) != name { k = tape[k + 1].next }
                    repeated = k
                }
            }
            if let repeated {
                let line = lineStarts.lastIndex { $0 <= tape[repeated].start }.map { $0 + 1 } ?? 1
                throw Problem(code: .duplicateKey, message: "duplicate key '\(text(t))' (first at line \(line))", start: t.start, at: t.end)
            }
        }

        private func text(_ t: Token) -> String { JSONNode.stringText(bytes, t) }

        private mutating func array(depth: Int) throws(Problem) {
            let token = try open(.array, depth: depth)
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { return close(token, count: 0) }
            var count = 0
            while true {
                skipSpace()
                // A string item is read here, not through `value`: the call (which cannot be
                // inlined, as it recurses) was a fifth of reading a list of row ids.
                if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                    try string()
                } else if i < bytes.count, bytes[i] &- UInt8(ascii: "0") < 10 {
                    try number()  // an offset, a list's integer
                } else if atOnce && moveAtOnce(depth: depth) {
                    // a batch's move, read at once
                } else {
                    try value(depth: depth)
                }
                count += 1
                skipSpace()
                guard i < bytes.count else { throw problem(.yamlSyntax, "expected ',' or ']' in an array, found end of input") }
                if bytes[i] == UInt8(ascii: ",") {
                    i += 1
                    continue
                }
                guard bytes[i] == UInt8(ascii: "]") else { throw problem(.yamlSyntax, "expected ',' or ']' in an array, found \(found)") }
                return close(token, count: count)
            }
        }

        /// `[a, b]` of two integers of at most nine digits, spaced with blanks only: a
        /// position, most of a batch's values (`"from": [5, 50]`). Read in one go by a static
        /// scanner with a local index (``pair(_:_:_:into:)``), into the very tokens
        /// ``array(depth:)`` and ``number()`` write; false, with nothing read, for anything else
        /// (a line break, a fraction, a longer list, a malformed text), which the general
        /// reader then reads from the same place (its problems included). A position through
        /// `value` and `array` was a fifth of reading a batch.
        @inline(__always)
        private mutating func pairOfIntegers(depth: Int) -> Bool {
            guard depth <= maxDepth, let base = bytes.baseAddress else { return false }
            var k = i
            var pair = Pair()
            guard Self.pair(base, bytes.count, &k, into: &pair) else { return false }
            tape.reserve(3)
            appendPair(pair, start: i, end: k)
            i = k
            return true
        }

        /// A pair of integers as ``pair(_:_:_:into:)`` reads it: values and where their digits are.
        struct Pair {
            var a: Int32 = 0, b: Int32 = 0
            var aStart = 0, aEnd = 0, bStart = 0, bEnd = 0
        }

        /// Reads `[a, b]` from `k` as ``pairOfIntegers(depth:)`` has it, into `pair`, and moves
        /// `k` past it; false (`k` anywhere) when the bytes there are anything else. Static,
        /// with the index a local: as a method of the reader, reading and writing its index and
        /// tape through `self`, a pair cost about 220 instructions (issue #26).
        @inline(__always)
        private static func pair(_ base: UnsafePointer<UInt8>, _ n: Int, _ k: inout Int, into pair: inout Pair) -> Bool {
            guard k < n, base[k] == UInt8(ascii: "[") else { return false }
            k &+= 1
            return item(base, n, &k, then: UInt8(ascii: ","), into: &pair.a, start: &pair.aStart, end: &pair.aEnd)
                && item(base, n, &k, then: UInt8(ascii: "]"), into: &pair.b, start: &pair.bStart, end: &pair.bEnd)
        }

        /// Blanks, an integer (its value and where its digits are), blanks and `separator`
        /// from `k`, `k` moved past them: one item of a pair.
        @inline(__always)
        private static func item(_ base: UnsafePointer<UInt8>, _ n: Int, _ k: inout Int, then separator: UInt8,
                                 into value: inout Int32, start: inout Int, end: inout Int) -> Bool {
            blanks(base, n, &k)
            start = k
            guard integer(base, n, &k, into: &value) else { return false }
            end = k
            blanks(base, n, &k)
            guard k < n, base[k] == separator else { return false }
            k &+= 1
            return true
        }

        /// An integer from `k` of one to nine digits without a leading zero, maybe negative:
        /// its value into `value`, `k` past it; false for anything else.
        @inline(__always)
        private static func integer(_ base: UnsafePointer<UInt8>, _ n: Int, _ k: inout Int, into value: inout Int32) -> Bool {
            guard k < n else { return false }
            let negative = base[k] == UInt8(ascii: "-")
            if negative { k &+= 1 }
            let lead = k
            var v: Int32 = 0
            while k < n {
                let d = base[k] &- 0x30
                guard d < 10 else { break }
                v = v &* 10 &+ Int32(d)
                k &+= 1
            }
            let whole = k &- lead
            guard whole > 0, whole <= 9, whole == 1 || base[lead] != UInt8(ascii: "0") else { return false }
            value = negative ? -v : v
            return true
        }

        /// Writes a pair's tokens (a list of two small numbers) from `start` to `end`, into
        /// room reserved for three.
        @inline(__always)
        private mutating func appendPair(_ pair: Pair, start: Int, end: Int) {
            let list = tape.count
            var listToken = Token(kind: .array, start: start, end: end, next: list &+ 3)
            listToken.count32 = 2
            tape.appendReserved(listToken)
            var a = Token(kind: .number, start: pair.aStart, end: pair.aEnd, next: list &+ 2)
            a.small = true
            a.count32 = UInt32(bitPattern: pair.a)
            tape.appendReserved(a)
            var b = Token(kind: .number, start: pair.bStart, end: pair.bEnd, next: list &+ 3)
            b.small = true
            b.count32 = UInt32(bitPattern: pair.b)
            tape.appendReserved(b)
            pairsRead &+= 1
        }

        /// `{"from": [a, b], "to": [c, d]}`, the keys in either order, spaced with blanks only
        /// and the positions as ``pairOfIntegers(depth:)`` reads them: a batch's usual item,
        /// read in one go into the very tokens the general path writes (`depth` is the list's,
        /// as ``array(depth:)`` has it). False, with nothing read, for anything else (another
        /// key, a key twice, a line break), which the general reader then reads from the same
        /// place. An item through `value`, `object`, the keys' strings and the check for a
        /// repeated key cost more than its two positions.
        @inline(__always)
        private mutating func moveAtOnce(depth: Int) -> Bool {
            let n = bytes.count
            // The positions are two levels down: read at once only where they may be.
            guard depth &+ 2 <= maxDepth, i < n, bytes[i] == UInt8(ascii: "{"), let base = bytes.baseAddress else { return false }
            let start = i, mark = tape.count, pairs = pairsRead
            // A local index and no nested function that captures `self`: `entry` was such a
            // function, called twice, and it stayed a call that kept the index in memory.
            var k = i &+ 1
            // The object, and a key and a position (three tokens) per entry, unchecked.
            tape.reserve(9)
            tape.appendReserved(Token(kind: .object, start: start, end: start, next: 0))
            Self.blanks(base, n, &k)
            var first = -1
            var read = false
            entries: for entry in 0..<2 {
                // `"from"` (0) or `"to"` (1), other than the first entry's key, and its `:`.
                let open = k
                let which: Int, keyEnd: Int
                if open &+ 8 <= n, Self.word(base, open) == 0x203A_226D_6F72_6622 {
                    // `"from": `, as a batch is usually written: one load and one compare.
                    (which, keyEnd) = (0, open &+ 6)
                    k = open &+ 8
                } else if open &+ 8 <= n, Self.word(base, open) & 0xFFFF_FFFF_FFFF == 0x203A_226F_7422 {
                    // `"to": `
                    (which, keyEnd) = (1, open &+ 4)
                    k = open &+ 6
                } else {
                    // Otherwise spaced: byte by byte.
                    if open &+ 6 <= n, base[open] == UInt8(ascii: "\""), base[open &+ 1] == UInt8(ascii: "f"), base[open &+ 2] == UInt8(ascii: "r"),
                       base[open &+ 3] == UInt8(ascii: "o"), base[open &+ 4] == UInt8(ascii: "m"), base[open &+ 5] == UInt8(ascii: "\"") {
                        which = 0
                    } else if open &+ 4 <= n, base[open] == UInt8(ascii: "\""), base[open &+ 1] == UInt8(ascii: "t"),
                              base[open &+ 2] == UInt8(ascii: "o"), base[open &+ 3] == UInt8(ascii: "\"") {
                        which = 1
                    } else {
                        break entries
                    }
                    keyEnd = open &+ (which == 0 ? 6 : 4)
                    k = keyEnd
                    Self.blanks(base, n, &k)
                    guard k < n, base[k] == UInt8(ascii: ":") else { break entries }
                    k &+= 1
                }
                guard which != first else { break entries }
                tape.appendReserved(Token(kind: .string, start: open, end: keyEnd, next: tape.count &+ 1))
                // The position, and the `,` or `}` after it, spaced with blanks.
                Self.blanks(base, n, &k)
                let at = k
                var pair = Pair()
                guard Self.pair(base, n, &k, into: &pair) else { break entries }
                appendPair(pair, start: at, end: k)
                Self.blanks(base, n, &k)
                guard k < n, base[k] == (entry == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")) else { break entries }
                k &+= 1
                if entry == 0 {
                    first = which
                    Self.blanks(base, n, &k)
                } else {
                    read = true
                }
            }
            guard read else {
                tape.truncate(to: mark)
                i = start
                pairsRead = pairs
                return false
            }
            i = k
            tape[mark].end32 = UInt32(truncatingIfNeeded: k)
            tape[mark].next32 = UInt32(truncatingIfNeeded: tape.count)
            tape[mark].count32 = 2
            movesRead &+= 1
            return true
        }

        /// The eight bytes from `k` as a little-endian word (the caller checked that they are there).
        @inline(__always)
        private static func word(_ base: UnsafePointer<UInt8>, _ k: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self))
        }

        /// Moves `k` past spaces and tabs.
        @inline(__always)
        private static func blanks(_ base: UnsafePointer<UInt8>, _ n: Int, _ k: inout Int) {
            while k < n, base[k] == 0x20 || base[k] == 0x09 { k &+= 1 }
        }

        @inline(__always)
        private mutating func scalar(_ kind: Token.Kind, from start: Int, escaped: Bool = false) {
            tape.append(Token(kind: kind, escaped: escaped, start: start, end: i, next: tape.count + 1))
        }

        private mutating func literal(_ word: StaticString) throws(Problem) {
            let start = i, count = word.utf8CodeUnitCount
            let matches = i + count <= bytes.count && (0..<count).allSatisfy { bytes[i + $0] == word.utf8Start[$0] }
            guard matches else { throw problem(.yamlSyntax, "expected a JSON value, found \(found)") }
            i += count
            try delimited()
            scalar(.literal, from: start)
        }

        /// A value must be followed by space, a separator or the end (`truex`, `1x` are not JSON).
        private func delimited() throws(Problem) {
            guard i == bytes.count || Self.isDelimiter(bytes[i]) else { throw problem(.yamlSyntax, "unexpected \(found) after a JSON value") }
        }

        @inline(__always)
        static func isDelimiter(_ b: UInt8) -> Bool {
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): true
            default: false
            }
        }

        /// Digits from `k`: where they end.
        @inline(__always)
        private func digits(from k: Int) -> Int {
            var k = k
            while k < bytes.count, bytes[k] &- 0x30 < 10 { k += 1 }
            return k
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, kept as written (a plain scalar).
        ///
        /// It reads with a local index and stores `i` once: storing `i` per digit and then
        /// reading the reader whole (to check the delimiter) stalled on every number, two fifths
        /// of reading a batch when positions were read here (they are read at once now,
        /// ``pairOfIntegers(depth:)``, unless spaced or written otherwise).
        ///
        /// An integer of at most nine digits keeps its value on the tape (``Token/small``): the
        /// digits are added up as they are scanned, which costs next to nothing here and saves
        /// reading them again for every position of a batch.
        @inline(__always)
        private mutating func number() throws(Problem) {
            let start = i
            var k = i
            let negative = bytes[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            let lead = k
            var value: UInt32 = 0
            while k < bytes.count {
                let d = bytes[k] &- 0x30
                guard d < 10 else { break }
                value = value &* 10 &+ UInt32(d)  // wraps past nine digits, when it is not kept
                k += 1
            }
            let whole = k - lead
            if whole == 0 || (whole > 1 && bytes[lead] == UInt8(ascii: "0")) || (k < bytes.count && !Self.isDelimiter(bytes[k])) {
                return try restOfNumber(start: start, lead: lead, end: k)
            }
            i = k
            var token = Token(kind: .number, start: start, end: k, next: tape.count + 1)
            if whole <= 9 {
                token.small = true
                token.count32 = UInt32(bitPattern: negative ? -Int32(value) : Int32(value))
            }
            tape.append(token)
        }

        /// The rest of a number that is not a plain integer: a fraction or an exponent (still a
        /// valid plain scalar), or the first problem of a malformed one. Off the hot path, so it
        /// may store `i` as it goes.
        private mutating func restOfNumber(start: Int, lead: Int, end: Int) throws(Problem) {
            i = end
            guard end > lead else { throw problem(.yamlSyntax, "expected digits in a number, found \(found)") }
            guard !(end - lead > 1 && bytes[lead] == UInt8(ascii: "0")) else {
                throw problem(.yamlSyntax, "a JSON number has no leading zeros", from: start)
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
                let after = digits(from: i + 1)
                i += 1
                guard after > i else { throw problem(.yamlSyntax, "expected digits after '.', found \(found)") }
                i = after
            }
            if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
                i += 1
                if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
                let after = digits(from: i)
                guard after > i else { throw problem(.yamlSyntax, "expected digits in an exponent, found \(found)") }
                i = after
            }
            try delimited()
            scalar(.number, from: start)
        }

        /// A double-quoted string, checked (escapes, UTF-8) but not decoded; the reader stands
        /// on the opening quote.
        @inline(__always)
        private mutating func string() throws(Problem) {
            let open = i
            i += 1
            var escaped = false, nonASCII = false
            while i < bytes.count {
                // The common run, eight bytes at a time: printable ASCII other than the quote
                // and the backslash. The lowest flagged byte of `special` is exact.
                if let base = bytes.baseAddress {
                    while i &+ 8 <= bytes.count {
                        let x = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self).littleEndian
                        let special = Self.special(x)
                        guard special == 0 else {
                            i &+= special.trailingZeroBitCount >> 3
                            break
                        }
                        i &+= 8
                    }
                }
                guard i < bytes.count else { break }
                var b = bytes[i]
                // The rest of the run, byte by byte (near the end of the body).
                while b >= 0x20 && b < 0x80 && b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") {
                    i += 1
                    guard i < bytes.count else { throw problem(.yamlSyntax, "a string is not closed", from: open) }
                    b = bytes[i]
                }
                if b == UInt8(ascii: "\"") {
                    if nonASCII {
                        guard validUTF8(open + 1..<i) else { throw problem(.yamlSyntax, "a string is not valid UTF-8", from: open) }
                        ascii = false
                    }
                    i += 1
                    scalar(.string, from: open, escaped: escaped)
                    if nonASCII { tape[tape.count - 1].nonASCII = true }
                    return
                }
                if b == UInt8(ascii: "\\") {
                    escaped = true
                    try escape()
                    continue
                }
                if b < 0x20 {
                    throw problem(.yamlSyntax, "a control character (byte 0x\(String(b, radix: 16, uppercase: true))) inside a string must be escaped")
                }
                if b >= 0x80 { nonASCII = true }
                i += 1
            }
            throw problem(.yamlSyntax, "a string is not closed", from: open)
        }

        /// The high bit of each byte of `x` (little-endian) that is a quote, a backslash, a
        /// control character or not ASCII; bits above the lowest one may be false alarms.
        @inline(__always)
        static func special(_ x: UInt64) -> UInt64 {
            (_JSONBytes.escapes(x) | x) & 0x8080_8080_8080_8080
        }

        private func validUTF8(_ range: Range<Int>) -> Bool {
            String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) != nil
        }

        /// Checks one escape after a backslash.
        private mutating func escape() throws(Problem) {
            let start = i
            i += 1
            guard i < bytes.count else { throw problem(.yamlSyntax, "a string is not closed") }
            let c = bytes[i]
            i += 1
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return
            case UInt8(ascii: "u"):
                let lone = Problem(code: .yamlSyntax, message: "a lone surrogate escape is not a character", start: start, at: i + 4)
                guard let high = JSONNode.hex4(bytes, i) else { throw problem(.yamlSyntax, "'\\u' takes four hex digits", from: start) }
                i += 4
                if (0xDC00..<0xE000).contains(high) { throw lone }
                guard (0xD800..<0xDC00).contains(high) else { return }
                guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                      let low = JSONNode.hex4(bytes, i + 2), (0xDC00..<0xE000).contains(low) else { throw lone }
                i += 6
            default:
                throw problem(.yamlSyntax, "unknown escape '\\\(Character(Unicode.Scalar(c)))' in a string", from: start)
            }
        }
    }
}

/// Word-at-a-time byte tests for JSON strings, shared by the reader and the writer. Not API:
/// public (and underscored) only so that the writer in `ReorderPolicy` inlines them, which a
/// `package` function is not.
public enum _JSONBytes {
    /// The high bit of each byte of `x` (eight bytes, little-endian) that a JSON string must
    /// escape: a quote, a backslash or a control character. The lowest flagged byte is exact;
    /// bits above it may be false alarms (a borrow), so a scan stops at the lowest and looks.
    @inlinable @inline(__always)
    public static func escapes(_ x: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C)
        let zeroQuote = (quote &- ones) & ~quote
        let zeroBackslash = (backslash &- ones) & ~backslash
        let control = (x &- ones &* 0x20) & ~x
        return (zeroQuote | zeroBackslash | control) & highs
    }

    /// The high bit of each byte of `x` (eight bytes, little-endian) that a JSON string must
    /// escape, exactly (no false alarms: no carry or borrow crosses a byte), for a writer that
    /// escapes every flagged byte of a word in one go.
    @inlinable @inline(__always)
    public static func exactEscapes(_ x: UInt64) -> UInt64 {
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F, highs: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte's high bit, after adding 0x7F to its low seven bits, says it was not zero.
        let quote = x ^ (ones &* 0x22), backslash = x ^ (ones &* 0x5C)
        let notQuote = ((quote & lows) &+ lows) | quote
        let notBackslash = ((backslash & lows) &+ lows) | backslash
        // And after adding 0x60, that it was at least 0x20 (or had its high bit set).
        let notControl = ((x & lows) &+ ones &* 0x60) | x
        return ~(notQuote & notBackslash & notControl) & highs
    }
}

/// A value of a ``JSONDocument``: a place on its tape. Strings are made only when asked for.
/// Valid only inside the ``JSONDocument/withRoot(_:)`` call that handed it out.
public struct JSONNode: DocumentNode {
    /// Where a document's tape and bytes are: plain pointers, so copying a node, walking a
    /// list or reading a scalar touches no reference count.
    @usableFromInline struct Place {
        @usableFromInline let tape: UnsafePointer<JSONDocument.Token>
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        /// For spans (the mark table) only; not retained.
        @usableFromInline let storage: Unmanaged<JSONDocument.Storage>

        @usableFromInline init(tape: UnsafePointer<JSONDocument.Token>, bytes: UnsafeBufferPointer<UInt8>, storage: Unmanaged<JSONDocument.Storage>) {
            self.tape = tape
            self.bytes = bytes
            self.storage = storage
        }
    }

    // Inlinable, so the decoders' generic code specializes to plain reads of the tape.
    @usableFromInline let place: Place
    @usableFromInline let index: Int

    @usableFromInline init(_ place: Place, index: Int) {
        self.place = place
        self.index = index
    }

    @inlinable var token: JSONDocument.Token { place.tape[index] }

    public var span: Span {
        let t = token
        return place.storage._withUnsafeGuaranteedRef { Span(start: $0.marks.mark(t.start), end: $0.marks.mark(t.end)) }
    }

    @inlinable public var scalar: String? {
        let t = token
        switch t.kind {
        case .object, .array: return nil
        case .string: return Self.stringText(place.bytes, t)
        case .number, .literal: return Self.text(UnsafeBufferPointer(rebasing: place.bytes[t.start..<t.end]))
        }
    }

    @inlinable public var scalarStyle: ScalarStyle? {
        switch token.kind {
        case .object, .array: nil
        case .string: .doubleQuoted
        case .number, .literal: .plain
        }
    }

    @inlinable public var sequence: Items? {
        token.kind == .array ? Items(place, parent: index) : nil
    }

    @inlinable public var entries: Entries? {
        token.kind == .object ? Entries(place, parent: index) : nil
    }

    public var isInvalid: Bool { false }

    public var typeName: String {
        switch token.kind {
        case .object: "a mapping"
        case .array: "a list"
        case .string, .number, .literal: "a scalar"
        }
    }

    @inlinable public var plainInteger: Int? {
        let t = token
        guard t.kind == .number else { return nil }
        if t.small { return t.smallValue }
        return YAMLNode.plainInteger(UnsafeBufferPointer(rebasing: place.bytes[t.start..<t.end]))
    }

    public var tree: YAMLNode {
        switch token.kind {
        case .object:
            return YAMLNode(.mapping(Entries(place, parent: index).map { YAMLEntry(key: $0.key.tree, value: $0.value.tree) }), span: span)
        case .array:
            return YAMLNode(.sequence(Items(place, parent: index).map(\.tree)), span: span)
        case .string, .number, .literal:
            // Both are present for a scalar token.
            return YAMLNode(.scalar(scalar!, scalarStyle!), span: span)
        }
    }

    /// `{"from": [s, r], "to": [t, q]}`, in either key order, keys written without escapes and
    /// the four numbers integers of at most nine digits: the numbers, read off the tape; nil for
    /// anything else, which the general decoder reads (and words, when it is not a move).
    ///
    /// The usual item of a request's `moves` (issue #26): decoded through ``entries`` it cost
    /// about 650 instructions, two string keys matched against every known key and four
    /// optional integers; read here it costs a few dozen. It gives what the general path gives
    /// for the same node, since it only accepts what that path reads as a row move.
    public var rowMoveNumbers: (from: (Int, Int), to: (Int, Int))? {
        let tape = place.tape, i = index
        let object = tape[i]
        guard object.kind == .object, object.count == 2, object.next == i + 9 else { return nil }
        // Two keys, each followed by a list of two small integers: 9 tokens in all.
        @inline(__always) func pair(_ k: Int) -> (Int, Int)? {
            let list = tape[k], a = tape[k + 1], b = tape[k + 2]
            guard list.kind == .array, list.count == 2, list.next == k + 3,
                  a.kind == .number, a.small, b.kind == .number, b.small else { return nil }
            return (a.smallValue, b.smallValue)
        }
        @inline(__always) func key(_ k: Int) -> UInt8? {  // 0 for "from", 1 for "to"
            let t = tape[k]
            guard t.kind == .string, !t.escaped else { return nil }
            let bytes = place.bytes
            switch t.end - t.start {
            case 6 where bytes[t.start + 1] == UInt8(ascii: "f") && bytes[t.start + 2] == UInt8(ascii: "r")
                && bytes[t.start + 3] == UInt8(ascii: "o") && bytes[t.start + 4] == UInt8(ascii: "m"): return 0
            case 4 where bytes[t.start + 1] == UInt8(ascii: "t") && bytes[t.start + 2] == UInt8(ascii: "o"): return 1
            default: return nil
            }
        }
        guard let first = key(i + 1), let second = key(i + 5), first != second,
              let x = pair(i + 2), let y = pair(i + 6) else { return nil }
        return first == 0 ? (x, y) : (y, x)
    }

    /// The entries of an object, walked on the tape: each key, then its value, whose subtree
    /// ends where the next key starts.
    public struct Entries: Sequence {
        @usableFromInline let place: Place
        @usableFromInline let parent: Int

        @usableFromInline init(_ place: Place, parent: Int) {
            self.place = place
            self.parent = parent
        }

        @inlinable public var underestimatedCount: Int { place.tape[parent].count }

        @inlinable public func makeIterator() -> Iterator { Iterator(place, k: parent + 1, end: place.tape[parent].next) }

        public struct Iterator: IteratorProtocol {
            @usableFromInline let place: Place
            @usableFromInline var k: Int
            @usableFromInline let end: Int

            @usableFromInline init(_ place: Place, k: Int, end: Int) {
                self.place = place
                self.k = k
                self.end = end
            }

            @inlinable public mutating func next() -> DocumentEntry<JSONNode>? {
                guard k < end else { return nil }
                let key = JSONNode(place, index: k)
                let value = JSONNode(place, index: k + 1)
                let name = JSONNode.keyText(place.bytes, place.tape[k])
                k = place.tape[k + 1].next
                return DocumentEntry(key: key, value: value, name: name)
            }
        }
    }

    /// The items of an array, walked on the tape.
    public struct Items: Collection {
        @usableFromInline let place: Place
        @usableFromInline let parent: Int

        @usableFromInline init(_ place: Place, parent: Int) {
            self.place = place
            self.parent = parent
        }

        @inlinable public var startIndex: Int { parent + 1 }
        @inlinable public var endIndex: Int { place.tape[parent].next }
        @inlinable public var count: Int { place.tape[parent].count }
        @inlinable public func index(after i: Int) -> Int { place.tape[i].next }
        @inlinable public subscript(i: Int) -> JSONNode { JSONNode(place, index: i) }
    }

    /// A string token's text, escapes decoded (the reader checked them).
    @inlinable static func stringText(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONDocument.Token) -> String {
        let inner = t.start + 1..<t.end - 1
        guard t.escaped else { return text(UnsafeBufferPointer(rebasing: bytes[inner])) }
        return escapedText(bytes, inner)
    }

    /// A key's text: one of the known keys' strings when it is one (no string made), else
    /// as ``stringText(_:_:)``.
    @inlinable static func keyText(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONDocument.Token) -> String {
        if !t.escaped, let known = KnownKeys.string(UnsafeBufferPointer(rebasing: bytes[t.start + 1..<t.end - 1])) { return known }
        return stringText(bytes, t)
    }

    /// The bytes as a string (checked UTF-8).
    @inlinable static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: utf8, as: UTF8.self)
    }

    @usableFromInline static func escapedText(_ bytes: UnsafeBufferPointer<UInt8>, _ inner: Range<Int>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(inner.count)
        var i = inner.lowerBound
        while i < inner.upperBound {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            let c = bytes[i + 1]
            i += 2
            switch c {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                // Checked by the reader: four hex digits, surrogates in pairs.
                var code = hex4(bytes, i) ?? 0xFFFD
                i += 4
                if (0xD800..<0xDC00).contains(code), let low = hex4(bytes, i + 2) {
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
            default: out.append(c)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Four hex digits at `i`, or nil.
    @usableFromInline static func hex4<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes, _ i: Int) -> UInt32? where Bytes.Index == Int {
        guard i + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for b in bytes[i..<i + 4] {
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }
}
