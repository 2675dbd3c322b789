import ReorderEngine
import SpannedYAML
/// A small, fast JSON writer with a fixed key order, so machine output is stable byte for byte.
///
/// It writes into one growing buffer with plain `memcpy`s: batch output of a million
/// decisions spends its time deciding, not appending. A writer is a builder: copies share
/// their buffer, so do not copy one and write to both.
package struct JSONWriter {
    fileprivate final class Storage {
        var base: UnsafeMutablePointer<UInt8>
        var count = 0
        var capacity: Int

        init(capacity: Int) {
            self.capacity = Swift.max(capacity, 64)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        @inline(__always)
        func reserve(_ extra: Int) {
            guard count + extra > capacity else { return }
            var newCapacity = capacity * 2
            while newCapacity < count + extra { newCapacity *= 2 }
            let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            newBase.update(from: base, count: count)
            base.deallocate()
            base = newBase
            capacity = newCapacity
        }

        @inline(__always)
        func append(_ p: UnsafeRawPointer, _ n: Int) {
            reserve(n)
            _ShortCopy.copy(p, to: base + count, count: n)
            count += n
        }

        /// Writes `value` in decimal, in place.
        @inline(__always)
        func decimal(_ value: Int) {
            reserve(21)
            count += _Decimal.write(value, to: base + count)
        }

        @inline(__always)
        func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }
    }

    private var storage: Storage

    /// Creates an empty writer.
    package init(capacity: Int = 4096) { storage = Storage(capacity: capacity) }

    /// The bytes written so far (a copy).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

    /// The bytes written so far, handed over without a copy: the writer starts again empty,
    /// so nothing written later reaches them.
    package mutating func sealed() -> Sealed {
        assert(isKnownUniquelyReferenced(&storage), "a copy of this writer shares the buffer and could still write to it")
        defer { storage = Storage(capacity: 0) }
        return Sealed(storage: storage)
    }

    /// A writer's bytes that nothing writes to any more (``sealed()``), so they can be read
    /// from any thread.
    package final class Sealed: @unchecked Sendable {
        private let storage: Storage
        fileprivate init(storage: Storage) { self.storage = storage }

        /// Calls `read` with the bytes.
        package func withBytes<R>(_ read: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
            try read(UnsafeBufferPointer(start: storage.base, count: storage.count))
        }

        /// The bytes (a copy).
        package var bytes: [UInt8] { withBytes { Array($0) } }

        /// Hands over the buffer itself when `sealed` is the only reference to these bytes:
        /// its whole allocation (allocated as `UInt8`s; the taker frees it with
        /// `UnsafeMutableRawPointer.deallocate()`) and how many of its bytes are written, and
        /// sets `sealed` to nil. When another reference exists (someone may still read the
        /// bytes, from any thread), nothing is taken: nil.
        package static func takeBuffer(from sealed: inout Sealed?) -> (allocation: UnsafeMutableRawBufferPointer, count: Int)? {
            guard sealed != nil, isKnownUniquelyReferenced(&sealed!) else { return nil }
            let storage = sealed!.storage
            sealed = nil
            // Nothing else refers to `storage` now (a writer gives its storage up when sealed).
            let taken = (UnsafeMutableRawBufferPointer(start: storage.base, count: storage.capacity), storage.count)
            storage.base = .allocate(capacity: 1)
            storage.capacity = 1
            storage.count = 0
            return taken
        }
    }

    /// How many bytes are written.
    package var count: Int { storage.count }

    /// The output as text.
    package var text: String { String(decoding: UnsafeBufferPointer(start: storage.base, count: storage.count), as: UTF8.self) }

    /// Calls `body` with the bytes written so far.
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: storage.base, count: storage.count))
    }

    /// Appends raw JSON or punctuation.
    @inline(__always)
    package mutating func raw(_ s: StaticString) {
        storage.append(s.utf8Start, s.utf8CodeUnitCount)
    }

    /// Appends raw bytes.
    @inline(__always)
    package mutating func append(buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        storage.append(base, buffer.count)
    }

    /// Appends bytes already rendered elsewhere.
    package mutating func append(_ other: JSONWriter) {
        other.withBytes { append(buffer: $0) }
    }

    /// Appends text as is (no quoting).
    package mutating func bytes(_ s: String) {
        var s = s
        s.withUTF8 { append(buffer: $0) }
    }

    /// Appends a string literal, escaped.
    package mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            storage.append(UInt8(ascii: "\""))
            escaped(utf8)
            storage.append(UInt8(ascii: "\""))
        }
    }

    /// Appends the escaped content of a JSON string, without quotes.
    ///
    /// Room for the worst case (six bytes a byte, and a word of slack) is made once per 4 KiB
    /// of input, so the text is written without a capacity check per piece.
    package mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let base = utf8.baseAddress else { return }
        var chunk = 0
        while chunk < utf8.count {
            let end = Swift.min(utf8.count, chunk &+ 4096)
            storage.reserve((end &- chunk) &* 6 &+ 8)
            storage.count = Self.escape(from: base + chunk, count: end &- chunk, to: storage.base + storage.count,
                                        room: storage.capacity &- storage.count) - storage.base
            assert(storage.count <= storage.capacity, "escaped past the room made for it")
            chunk = end
        }
    }

    /// Writes `count` bytes from `source` escaped at `target`, which has room for six bytes a
    /// byte and eight more (`room` bytes: debug builds check every store against it); returns
    /// where the writing ended.
    ///
    /// Eight bytes at a time: a word is stored whole, and a word with bytes to escape (found
    /// exactly by ``_JSONBytes/exactEscapes(_:)``) is stored in pieces around them, each
    /// piece as the rest of the word shifted down (a store may write past the text's end into
    /// the slack; the next store or the end overwrites or ignores it). A reason has four
    /// quotes: stopping the scan at each and starting it again cost more than the scan.
    @inline(__always)
    private static func escape(from source: UnsafePointer<UInt8>, count: Int, to target: UnsafeMutablePointer<UInt8>,
                               room: Int) -> UnsafeMutablePointer<UInt8> {
        let out = UnsafeMutableRawPointer(target)
        var written = 0
        assert(room >= count &* 6 &+ 8, "less room than the worst case")
        /// Stores a whole word (little-endian) at `written`, without counting it written.
        @inline(__always) func store(_ word: UInt64) {
            assert(written &+ 8 <= room, "a word stored past the room made for the text")
            out.storeBytes(of: word.littleEndian, toByteOffset: written, as: UInt64.self)
        }
        /// Writes the first `length` bytes of `word` (little-endian), escaping those `flags`
        /// marks (the high bit of each).
        @inline(__always) func write(_ word: UInt64, length: Int, flags: UInt64) {
            var flags = flags
            var done = 0  // bytes of `word` written
            while flags != 0 {
                let k = flags.trailingZeroBitCount &>> 3
                store(word &>> UInt64(done &<< 3))
                written &+= k &- done
                assert(written &+ 6 <= room, "an escape written past the room made for the text")
                written &+= _JSONEscape.sequence(UInt8(truncatingIfNeeded: word &>> UInt64(k &<< 3)), at: out + written)
                done = k &+ 1
                flags &= flags &- 1
            }
            if done < length {
                store(word &>> UInt64(done &<< 3))
                written &+= length &- done
            }
        }
        var index = 0
        while index &+ 8 <= count {
            let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self).littleEndian
            let flags = _JSONBytes.exactEscapes(word)
            if flags == 0 {
                store(word)
                written &+= 8
            } else {
                write(word, length: 8, flags: flags)
            }
            index &+= 8
        }
        let rest = count &- index
        guard rest > 0 else { return target + written }
        // The last bytes: the text's last word shifted down, or, for a text under eight bytes,
        // its bytes gathered into a word; the bytes past the text are masked out.
        var word: UInt64 = 0
        if count >= 8 {
            let last = UnsafeRawPointer(source + (count &- 8)).loadUnaligned(as: UInt64.self).littleEndian
            word = last &>> UInt64((8 &- rest) &<< 3)
        } else {
            withUnsafeMutableBytes(of: &word) { _ShortCopy.copy(source, to: $0.baseAddress!, count: rest) }
            word = word.littleEndian
        }
        let mask: UInt64 = ~0 &>> UInt64((8 &- rest) &<< 3)
        write(word, length: rest, flags: _JSONBytes.exactEscapes(word) & mask)
        return target + written
    }

    /// Appends the escaped content of `s`, without quotes.
    package mutating func escaped(_ s: String) {
        var s = s
        s.withUTF8 { escaped($0) }
    }

    /// Appends an integer, its digits written in place.
    @inline(__always)
    package mutating func int(_ value: Int) {
        if value >= 0 && value < 10 {
            storage.append(UInt8(truncatingIfNeeded: 48 &+ value))
            return
        }
        storage.decimal(value)
    }

    /// Appends `true` or `false`.
    package mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    /// Appends a list of strings, `["a", "b"]` (rule ids in decision logs, counterexamples and
    /// claims).
    package mutating func strings(_ list: [String]) {
        raw("[")
        for (n, s) in list.enumerated() {
            if n > 0 { raw(", ") }
            string(s)
        }
        raw("]")
    }

    /// Appends `"key": ` (a comma first unless `first`).
    package mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { raw(", ") }
        storage.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
    }

    /// Room for at most `count` bytes written in one go: `body` writes through a ``Room`` (no
    /// capacity check per piece, the count stored once), for output made of many short pieces.
    @inline(__always)
    package mutating func withRoom(_ count: Int, _ body: (inout Room) -> Void) {
        storage.reserve(count)
        var room = Room(start: storage.base + storage.count)
        body(&room)
        assert(room.written <= count, "wrote past the room asked for")
        storage.count &+= room.written
    }

    /// Bytes written into room made by ``withRoom(_:_:)``.
    package struct Room {
        private let start: UnsafeMutablePointer<UInt8>
        private(set) var written = 0

        fileprivate init(start: UnsafeMutablePointer<UInt8>) { self.start = start }

        /// Writes a literal.
        @inline(__always)
        package mutating func raw(_ s: StaticString) {
            _ShortCopy.copy(s.utf8Start, to: start + written, count: s.utf8CodeUnitCount)
            written &+= s.utf8CodeUnitCount
        }

        /// Writes `[a, b]` (at most 44 bytes: two numbers of up to 20 digits and a sign, `[`,
        /// `, ` and `]`).
        @inline(__always)
        package mutating func pair(_ a: Int, _ b: Int) {
            let p = start + written
            p[0] = UInt8(ascii: "[")
            var k = 1 &+ _Decimal.write(a, to: p + 1)
            p[k] = UInt8(ascii: ",")
            p[k &+ 1] = UInt8(ascii: " ")
            k &+= 2
            k &+= _Decimal.write(b, to: p + k)
            p[k] = UInt8(ascii: "]")
            written &+= k &+ 1
        }
    }

    /// Appends `[a, b]`: a position, or an inclusive range.
    @inline(__always)
    package mutating func pair(_ a: Int, _ b: Int) {
        withRoom(44) { $0.pair(a, b) }
    }

    /// Closes a document's top-level list and writes its `"summary"` object, then the final brace.
    package mutating func closeList(empty: Bool, summary counts: KeyValuePairs<StaticString, Int>, between: ((inout JSONWriter) -> Void)? = nil) {
        raw(empty ? "],\n" : "\n  ],\n")
        // Top-level fields that come after the list and before the summary.
        between?(&self)
        raw("  \"summary\": {")
        for (n, (name, value)) in counts.enumerated() {
            if n > 0 { raw(", ") }
            storage.append(UInt8(ascii: "\""))
            raw(name)
            raw("\": ")
            int(value)
        }
        raw("},\n  \"format\": ")
        int(Self.format)
        raw("\n}\n")
    }

    /// The version of every JSON document this tool writes (docs/OUTPUT.md): it changes only
    /// when a field changes meaning or goes away; new fields keep it.
    package static let format = 1

    /// Drops the contents (after writing them out).
    package mutating func reset() { storage.count = 0 }
}
