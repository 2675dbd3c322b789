import ReorderEngine
import SpannedYAML
/// A small, fast JSON writer with a fixed key order, so machine output is stable byte for byte.
///
/// It writes into one growing buffer with plain `memcpy`s: batch output of a million
/// decisions spends its time deciding, not appending. A writer is a builder: copies share
/// their buffer, so do not copy one and write to both.
package struct JSONWriter {
    private final class Storage {
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

    private let storage: Storage

    /// Creates an empty writer.
    package init(capacity: Int = 4096) { storage = Storage(capacity: capacity) }

    /// The bytes written so far (a copy).
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

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
    package mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let hex: StaticString = "0123456789abcdef"
        guard let base = utf8.baseAddress else { return }
        var runStart = 0
        var index = 0
        while index < utf8.count {
            // Eight bytes at a time while none needs an escape (most messages have none).
            while index &+ 8 <= utf8.count {
                let flags = _JSONBytes.escapes(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian)
                guard flags == 0 else {
                    index &+= flags.trailingZeroBitCount >> 3  // the lowest flag is exact
                    break
                }
                index &+= 8
            }
            guard index < utf8.count else { break }
            let byte = utf8[index]
            if byte < 0x20 || byte == 34 || byte == 92 {
                // Copy the clean run before this byte in one go, then its escape.
                if runStart < index { storage.append(base + runStart, index - runStart) }
                runStart = index + 1
                storage.append(92)
                switch byte {
                case 34: storage.append(34)
                case 92: storage.append(92)
                case 0x0A: storage.append(110)
                case 0x0D: storage.append(114)
                case 0x09: storage.append(116)
                default:
                    raw("u00")
                    storage.append(hex.utf8Start[Int(byte >> 4)])
                    storage.append(hex.utf8Start[Int(byte & 15)])
                }
            }
            index += 1
        }
        if runStart < utf8.count { storage.append(base + runStart, utf8.count - runStart) }
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

    /// Appends `"key": ` (a comma first unless `first`).
    package mutating func key(_ name: StaticString, first: Bool = false) {
        if !first { raw(", ") }
        storage.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
    }

    /// Appends `[a, b]`: a position, or an inclusive range.
    package mutating func pair(_ a: Int, _ b: Int) {
        storage.append(UInt8(ascii: "["))
        int(a)
        raw(", ")
        int(b)
        storage.append(UInt8(ascii: "]"))
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
