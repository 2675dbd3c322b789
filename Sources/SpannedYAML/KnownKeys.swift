/// The keys of this project's files and request bodies (SPEC §3, §5, §9), as strings made
/// once. A key read from a table, a moves file or a request is one of them almost always, and
/// telling its bytes apart costs less than making a string of them (UTF-8 checked) per key: a
/// 1,000-move batch has 2,000 keys (issue #26). Any other key is made as before. Used by
/// `JSONNode` here and by the moves decoder's `FlatNode` (ReorderPolicy).
@usableFromInline package enum KnownKeys {
    /// The key whose UTF-8 bytes are `bytes`, or nil when it is not one of the known ones.
    @usableFromInline @inline(__always)
    package static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch bytes.count {
        case 2:
            if matches(bytes, "to") { return "to" }
            if matches(bytes, "id") { return "id" }
        case 4:
            if matches(bytes, "from") { return "from" }
            if matches(bytes, "rows") { return "rows" }
            if matches(bytes, "kind") { return "kind" }
            if matches(bytes, "tags") { return "tags" }
            if matches(bytes, "move") { return "move" }
        case 5:
            if matches(bytes, "moves") { return "moves" }
            if matches(bytes, "table") { return "table" }
        case 7:
            if matches(bytes, "section") { return "section" }
        case 8:
            if matches(bytes, "sections") { return "sections" }
        case 9:
            if matches(bytes, "to-offset") { return "to-offset" }
            if matches(bytes, "table-ref") { return "table-ref" }
        case 10:
            if matches(bytes, "section-to") { return "section-to" }
            if matches(bytes, "attributes") { return "attributes" }
        case 12:
            if matches(bytes, "section-from") { return "section-from" }
            if matches(bytes, "from-offsets") { return "from-offsets" }
        default:
            break
        }
        return nil
    }

    /// Whether `bytes` (as many as the literal has) are the literal's.
    @usableFromInline @inline(__always)
    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let l = literal.utf8Start
        var k = 0
        while k < bytes.count {
            if bytes[k] != l[k] { return false }
            k &+= 1
        }
        return true
    }
}
