/// Reads the common shape of a decision request body straight into a ``Table`` and moves,
/// without building YAML nodes: plain ASCII JSON with no escapes, the known keys once each,
/// rows as strings or `{id, kind, tags}` objects, moves as `{from, to}` or
/// `{section-from, section-to}` with JSON integers.
///
/// It never decides what a body means on its own: on anything outside that shape (non-ASCII,
/// a backslash, a tab, a number where a string goes, an unknown or repeated key, an offset
/// move, a malformed item) it returns nil and ``DecisionService`` reads the body the general
/// way: ``JSONDocument`` and the table and moves decoders that read files, which also word
/// every error. Tests check that for every body it accepts it gives exactly what the general
/// path gives.
///
/// Why it is still here: one move on a 10 × 100 table takes about 51 µs through the general
/// path against 45 µs through this single pass (the general path was 69 µs before its nodes
/// became plain pointers; BENCHMARKS.md, "The request reader, again"), and the server's
/// figures may not go backwards (issue #24). What is left is the second pass itself: the tape
/// and one more walk per row. It goes when the general decode builds rows while reading.
struct FastRequestReader {
    /// Valid only inside the `withUnsafeBufferPointer` call of ``check(_:)`` / ``explain(_:)``.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// `{"table": ..., "moves": [...]}` (either order), or nil.
    static func check(_ body: [UInt8]) -> (Table, [Move])? {
        body.withUnsafeBufferPointer { buffer in
            var r = FastRequestReader(buffer)
            guard r.asciiOnly() else { return nil }
            var table: Table?, moves: [Move]?
            let ok = r.object { key, r in
                switch key {
                case "table" where table == nil: table = r.table(); return table != nil
                case "moves" where moves == nil: moves = r.moves(); return moves != nil
                default: return false
                }
            }
            guard ok, r.atEnd(), let table, let moves else { return nil }
            return (table, moves)
        }
    }

    /// `{"table": ..., "move": {...}}` (either order), or nil.
    static func explain(_ body: [UInt8]) -> (Table, Move)? {
        body.withUnsafeBufferPointer { buffer in
            var r = FastRequestReader(buffer)
            guard r.asciiOnly() else { return nil }
            var table: Table?, move: Move?
            let ok = r.object { key, r in
                switch key {
                case "table" where table == nil: table = r.table(); return table != nil
                case "move" where move == nil: move = r.move(); return move != nil
                default: return false
                }
            }
            guard ok, r.atEnd(), let table, let move else { return nil }
            return (table, move)
        }
    }

    // MARK: - Shapes

    private mutating func table() -> Table? {
        var sections: [Section]?
        let ok = object { key, r in
            guard key == "sections", sections == nil else { return false }
            var list: [Section] = []
            guard r.array({ r in
                guard let s = r.section() else { return false }
                list.append(s)
                return true
            }) else { return false }
            sections = list
            return true
        }
        guard ok, let sections else { return nil }
        return Table(sections: sections)
    }

    private mutating func section() -> Section? {
        var id: String??, kind: String??, tags: [String]?, attributes: [String: Int]?, rows: [Row]?
        let ok = object { key, r in
            switch key {
            case "id" where id == nil:
                guard let s = r.string() else { return false }
                id = .some(s)
                return true
            case "kind" where kind == nil:
                // `null` (absent, SPEC §8.5) is left to the slow path, like every other non-string.
                guard let s = r.string() else { return false }
                kind = .some(s)
                return true
            case "tags" where tags == nil:
                tags = r.strings()
                return tags != nil
            case "attributes" where attributes == nil:
                var values: [String: Int] = [:]
                guard r.object({ name, r in
                    // Plain integers >= 0 once each; anything else gets the slow path's located error.
                    guard values[name] == nil, let v = r.integer(), v >= 0 else { return false }
                    values[name] = v
                    return true
                }) else { return false }
                attributes = values
                return true
            case "rows" where rows == nil:
                var list: [Row] = []
                guard r.array({ r in
                    guard let row = r.row() else { return false }
                    list.append(row)
                    return true
                }) else { return false }
                rows = list
                return true
            default: return false
            }
        }
        guard ok, let rows else { return nil }
        return Section(id: id ?? nil, kind: kind ?? nil, tags: tags ?? [], attributes: attributes ?? [:], rows: rows)
    }

    private mutating func row() -> Row? {
        skipSpace()
        if peek == UInt8(ascii: "\"") { return string().map { Row(id: $0) } }
        var id: String?, kind: String??, tags: [String]?
        let ok = object { key, r in
            switch key {
            case "id" where id == nil: id = r.string(); return id != nil
            case "kind" where kind == nil:
                guard let s = r.string() else { return false }
                kind = .some(s)
                return true
            case "tags" where tags == nil:
                tags = r.strings()
                return tags != nil
            default: return false
            }
        }
        guard ok, let id else { return nil }
        return Row(id: id, kind: kind ?? nil, tags: tags ?? [])
    }

    /// A JSON array of strings.
    private mutating func strings() -> [String]? {
        var list: [String] = []
        guard array({ r in
            guard let s = r.string() else { return false }
            list.append(s)
            return true
        }) else { return nil }
        return list
    }

    private mutating func moves() -> [Move]? {
        var list: [Move] = []
        guard array({ r in
            guard let m = r.move() else { return false }
            list.append(m)
            return true
        }) else { return nil }
        return list
    }

    private mutating func move() -> Move? {
        var from: Position?, to: Position?, sectionFrom: Int?, sectionTo: Int?
        let ok = object { key, r in
            switch key {
            case "from" where from == nil: from = r.pair(); return from != nil
            case "to" where to == nil: to = r.pair(); return to != nil
            case "section-from" where sectionFrom == nil: sectionFrom = r.integer(); return sectionFrom != nil
            case "section-to" where sectionTo == nil: sectionTo = r.integer(); return sectionTo != nil
            default: return false
            }
        }
        guard ok else { return nil }
        switch (from, to, sectionFrom, sectionTo) {
        case (let f?, let t?, nil, nil): return .row(from: f, to: t)
        case (nil, nil, let a?, let b?): return .section(from: a, to: b)
        default: return nil
        }
    }

    private mutating func pair() -> Position? {
        var values: [Int] = []
        guard array({ r in
            guard values.count < 2, let v = r.integer() else { return false }
            values.append(v)
            return true
        }), values.count == 2 else { return nil }
        return Position(section: values[0], row: values[1])
    }

    // MARK: - JSON pieces

    private var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    /// Only printable ASCII, space, LF and CR: everything else goes the slow way.
    private func asciiOnly() -> Bool {
        for byte in bytes where byte >= 0x7F || (byte < 0x20 && byte != 0x0A && byte != 0x0D) { return false }
        return true
    }

    private mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D { i += 1 }
    }

    private mutating func atEnd() -> Bool {
        skipSpace()
        return i == bytes.count
    }

    private mutating func expect(_ c: UInt8) -> Bool {
        skipSpace()
        guard peek == c else { return false }
        i += 1
        return true
    }

    /// `{ "key": value, ... }`; `member` reads each value and returns false to give up.
    private mutating func object(_ member: (String, inout FastRequestReader) -> Bool) -> Bool {
        guard expect(UInt8(ascii: "{")) else { return false }
        if expect(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = string(), expect(UInt8(ascii: ":")), member(key, &self) else { return false }
        } while expect(UInt8(ascii: ","))
        return expect(UInt8(ascii: "}"))
    }

    /// `[ value, ... ]`.
    private mutating func array(_ element: (inout FastRequestReader) -> Bool) -> Bool {
        guard expect(UInt8(ascii: "[")) else { return false }
        if expect(UInt8(ascii: "]")) { return true }
        repeat {
            guard element(&self) else { return false }
        } while expect(UInt8(ascii: ","))
        return expect(UInt8(ascii: "]"))
    }

    /// A string without escapes.
    private mutating func string() -> String? {
        guard expect(UInt8(ascii: "\"")) else { return nil }
        let start = i
        while let b = peek, b != UInt8(ascii: "\"") {
            // Escapes, and raw line breaks (which YAML folds inside quoted strings), go the slow way.
            if b == UInt8(ascii: "\\") || b < 0x20 { return nil }
            i += 1
        }
        guard peek != nil else { return nil }
        let s = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        i += 1
        return s
    }

    /// A JSON integer (`-?(0|[1-9][0-9]*)`) that fits an `Int`, followed by a delimiter.
    private mutating func integer() -> Int? {
        skipSpace()
        var negative = false
        if peek == UInt8(ascii: "-") {
            negative = true
            i += 1
        }
        let start = i
        var value = 0
        while let b = peek, b >= 0x30, b <= 0x39 {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int(b - 0x30))
            guard !o1, !o2 else { return nil }
            value = a
            i += 1
        }
        let digits = i - start
        guard digits > 0, !(digits > 1 && bytes[start] == 0x30) else { return nil }
        if let b = peek, b != UInt8(ascii: ","), b != UInt8(ascii: "]"), b != UInt8(ascii: "}"), b != 0x20, b != 0x0A, b != 0x0D {
            return nil  // 1.5, 1e3 and the like: not an integer
        }
        return negative ? -value : value
    }
}
