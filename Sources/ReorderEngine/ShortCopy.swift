/// Copies of a few bytes without a call to `memcpy`.
///
/// Output is written in short pieces (punctuation, keys, row ids, digits): a call to `memcpy`
/// for each cost more than the copy (issue #26: a tenth of a batch's instructions). Pieces of
/// up to 16 bytes move as two overlapping words, or a few bytes; longer ones go to `memcpy`.
package enum ShortCopy {
    /// Copies `count` bytes from `source` to `target` (the two do not overlap).
    @inlinable @inline(__always)
    package static func copy(_ source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, count: Int) {
        switch count {
        case 8...16:
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
            target.storeBytes(of: head, as: UInt64.self)
            target.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
        case 4..<8:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
            target.storeBytes(of: head, as: UInt32.self)
            target.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
        case 1..<4:
            for k in 0..<count { target.storeBytes(of: source.load(fromByteOffset: k, as: UInt8.self), toByteOffset: k, as: UInt8.self) }
        case 0: break
        default: target.copyMemory(from: source, byteCount: count)
        }
    }
}
