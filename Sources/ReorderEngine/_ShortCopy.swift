/// Copies of a few bytes without a call to `memcpy`. Not API: public (and underscored) only
/// so that the JSON writer in `ReorderPolicy` can inline it, which a `package` function is not
/// (measured: called, not inlined, 4 % of a batch's samples).
///
/// Output is written in short pieces (punctuation, keys, row ids, digits): a call to `memcpy`
/// for each cost more than the copy (issue #26). Pieces of up to 16 bytes move as two
/// overlapping words, or a few bytes; longer ones go to `memcpy`.
public enum _ShortCopy {
    /// Copies `count` bytes from `source` to `target` (the two do not overlap).
    @inlinable @inline(__always)
    public static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        if count >= 8 && count <= 16 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        } else if count >= 4 && count < 8 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        } else if count < 4 {
            var k = 0
            while k < count {
                target.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self)
                k &+= 1
            }
        } else {
            target.copyMemory(from: source, byteCount: count)
        }
    }
}

/// An integer in decimal, written in place: the one digit writer of reasons and JSON output.
/// Not API: public (and underscored) only to be inlined into the JSON writer, as `_ShortCopy`
/// is.
public enum _Decimal {
    /// Writes `n` in decimal at `target`, which has room for 20 digits and a sign; returns how
    /// many bytes it wrote.
    @inlinable @inline(__always)
    public static func write(_ n: Int, to target: UnsafeMutablePointer<UInt8>) -> Int {
        // Most numbers written are a position's section or row: below 100, two stores.
        if UInt(bitPattern: n) < 100 {
            let u = UInt8(truncatingIfNeeded: n)
            if u < 10 {
                target[0] = 48 &+ u
                return 1
            }
            target[0] = 48 &+ u / 10
            target[1] = 48 &+ u % 10
            return 2
        }
        var digits = 1
        var bound: UInt = 10
        let magnitude = n.magnitude
        while digits < 20 && magnitude >= bound {
            digits &+= 1
            bound = bound &* 10
        }
        let sign = n < 0 ? 1 : 0
        if sign == 1 { target[0] = UInt8(ascii: "-") }
        var v = magnitude
        var i = sign &+ digits
        repeat {
            i &-= 1
            target[i] = UInt8(truncatingIfNeeded: 48 &+ v % 10)
            v /= 10
        } while v > 0
        return sign &+ digits
    }
}

/// How a byte is escaped in a JSON string: the one escape table of the JSON writer and of
/// reasons worded for JSON (`JSONWordedReason`). Not API: public (and underscored) only to
/// be inlined into the JSON writer, as `_ShortCopy` is.
public enum _JSONEscape {
    /// Whether `byte` must be escaped in a JSON string: a quote, a backslash or a control
    /// character.
    @inlinable @inline(__always)
    public static func isNeeded(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 34 || byte == 92
    }

    /// Writes the escape of `byte` (a quote, a backslash or a control character) at `out`,
    /// which has room for six bytes; returns its length.
    @inlinable @inline(__always)
    public static func sequence(_ byte: UInt8, at out: UnsafeMutableRawPointer) -> Int {
        let p = out.assumingMemoryBound(to: UInt8.self)
        p[0] = 92
        switch byte {
        case 34: p[1] = 34
        case 92: p[1] = 92
        case 0x0A: p[1] = 110
        case 0x0D: p[1] = 114
        case 0x09: p[1] = 116
        default:
            let hex: StaticString = "0123456789abcdef"
            p[1] = 117  // u00XY
            p[2] = 48
            p[3] = 48
            p[4] = hex.utf8Start[Int(byte >> 4)]
            p[5] = hex.utf8Start[Int(byte & 15)]
            return 6
        }
        return 2
    }
}
