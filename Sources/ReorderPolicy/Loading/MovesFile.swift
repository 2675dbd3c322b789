#if canImport(Glibc)
import SpannedYAML
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One item of a moves file: a move to decide, or an item that is not a valid move.
public enum MoveItem: Sendable {
    /// A well-formed move (still to be range-checked against the table).
    case move(Move)
    /// Rows moved together, SwiftUI style: `{ from-offsets: [...], to-offset: n, section: s }`.
    case offsets(fromOffsets: [Int], toOffset: Int, section: Int)
    /// A malformed item, echoed as given, with what is wrong.
    case invalid(given: YAMLNode, error: String)
}

/// Reads moves files (SPEC §5): a YAML or JSON list of `{ from: [s, r], to: [s, r] }` or
/// `{ section-from: a, section-to: b }`. Items are streamed one at a time, so a million
/// moves never become one big tree.
public enum MovesFile {
    /// Streams the items of `source` to `body`, in file order. Returns the problems that make
    /// the whole file unusable (not a list, broken YAML): an input error, exit status 2.
    ///
    /// Items are read a few dozen at a time and handed to `body` after each such group is
    /// read; the items read before a problem that stops the file are handed over before this
    /// returns.
    public static func stream(_ source: SourceFile, _ body: (MoveItem) -> Void) -> [Diagnostic] {
        stream(source, batchSize: 64) { $0.forEach(body) }
    }

    /// Streams the moves file at `path` without holding it: it is read as parsing goes, so
    /// memory stays flat from ten moves to ten million. Throws when it cannot be opened (a
    /// FIFO, a device, a missing file); returns the problems that make it unusable. Items reach
    /// `body` as from ``stream(_:_:)``.
    public static func stream(path: String, _ body: (MoveItem) -> Void) throws(SourceFile.ReadError) -> [Diagnostic] {
        try stream(path: path, batchSize: 64) { $0.forEach(body) }
    }

    /// Streams the items of `source` in batches of up to `batchSize` (see ``MovesBatch``):
    /// `deliver` gets each full batch, and the last one, to take or to empty.
    package static func stream(_ source: SourceFile, batchSize: Int, deliver: (inout MovesBatch) -> Void) -> [Diagnostic] {
        stream(YAMLEventStream(bytes: source.bytes, file: source.path, limits: .stream, upToUnreadable: true), batchSize: batchSize, deliver: deliver)
    }

    /// The moves file at `path` in batches, read as parsing goes.
    package static func stream(path: String, batchSize: Int, deliver: (inout MovesBatch) -> Void) throws(SourceFile.ReadError) -> [Diagnostic] {
        let (fd, _) = try SourceFile.openRegular(path)
        defer { close(fd) }
        return stream(descriptor: fd, path: path, from: nil, batchSize: batchSize, deliver: deliver)
    }

    /// The moves file open at `descriptor` in batches, read as parsing goes: from its start,
    /// or from `from` on (see ``YAMLEventStream/init(descriptor:file:limits:upToUnreadable:from:)``),
    /// to read the rest of a file whose first pieces were read by ``readPiece(_:file:batchSize:batch:deliver:)``.
    package static func stream(
        descriptor: Int32, path: String, from: (offset: Int, origin: StreamOrigin)?, batchSize: Int, deliver: (inout MovesBatch) -> Void
    ) -> [Diagnostic] {
        stream(YAMLEventStream(descriptor: descriptor, file: path, limits: .stream, upToUnreadable: true, from: from),
               batchSize: batchSize, deliver: deliver)
    }

    /// Reads `bytes`, a piece of a moves file (its start, or from a line that opens with `- `),
    /// as a file of its own, and hands its items to `deliver` in `batch` (emptied first; its
    /// buffers are kept from piece to piece) as
    /// ``stream(_:batchSize:deliver:)`` would. Returns the marks of the piece's sequence start
    /// and of its end, counted from its start, when the piece stands on its own: one block sequence at column 1 and
    /// nothing else, no directive, no `...`, every item read flat (distinct scalar keys) and
    /// nothing reported. Reading the whole file then gives the same items from this piece;
    /// BatchPipeline's notes say why. Returns nil otherwise, and the items delivered must be
    /// dropped: the file is read from the piece's start on as one stream instead.
    package static func readPiece(
        _ bytes: UnsafeBufferPointer<UInt8>, file: String, batchSize: Int, batch: inout MovesBatch, deliver: (inout MovesBatch) -> Void
    ) -> (sequence: Mark, end: Mark)? {
        // A second byte order mark after the first would be dropped by the stream and read by
        // libyaml in the whole file: not a piece.
        guard !bytes.isEmpty, ByteOrderMark.length(bytes) == 0 else { return nil }
        // Not looked over for unreadable bytes first: libyaml's reader refuses the same bytes
        // (`UnreadableScan` follows its checks), and any error drops the piece.
        let stream = YAMLEventStream(borrowing: bytes, file: file, limits: .stream, upToUnreadable: false)
        batch.removeAll()
        do {
            guard case .documentStart = try stream.next(), stream.lastEventIsPlainDocumentBoundary,
                  case .sequenceStart(let span) = try stream.next(), stream.lastEventIsBlockSequence, span.start.column == 1
            else { return nil }
            while let start = try stream.readFlatNode(appendingTo: &batch.flat) {
                guard stream.diagnostics.isEmpty, batch.flat.keysAreDistinctScalars(at: start) else { return nil }
                batch.entries.append(.flat(start))
                if batch.entries.count >= batchSize { deliver(&batch) }
            }
            guard case .documentEnd = try stream.next(), stream.lastEventIsPlainDocumentBoundary,
                  case .streamEnd(let end) = try stream.next(), stream.diagnostics.isEmpty
            else { return nil }
            if !batch.isEmpty { deliver(&batch) }
            return (span.start, end.start)
        } catch {
            return nil
        }
    }

    private static func stream(_ stream: YAMLEventStream, batchSize: Int, deliver: (inout MovesBatch) -> Void) -> [Diagnostic] {
        var batch = MovesBatch()
        defer { if !batch.isEmpty { deliver(&batch) } }
        do {
            guard case .documentStart = try stream.next() else {
                stream.report(.yamlEmpty, "the moves file is empty; expected a list of moves", Span(at: .start))
                return stream.diagnostics
            }
            let first = try stream.next()
            guard case .sequenceStart = first else {
                let node = try YAMLDocument.readNode(stream, first: first)
                stream.report(.typeMismatch, "expected a list of moves, found \(node.typeName)", node.span)
                return stream.diagnostics
            }
            // Each item is read flat (no string per scalar) into the batch, after the items
            // before it, and decoded in place by `item`, the one decoder of a move
            // (`FlatNode`), when the batch is taken: `check --moves` decodes on its deciding
            // thread, so the reading thread is libyaml's. An item that building a tree would
            // refuse (an anchor, an alias, a tag, a duplicate or non-scalar key) is built into
            // a node here, so its errors are reported as for any file, and decoded (or echoed)
            // from there. docs/OUTPUT.md, "Moves files": every item before the first
            // unreadable byte is decided; an item that breaks SPEC §4 (an anchor, an alias, a
            // tag) is `invalid` with that error and the rest go on; the unreadable byte stops
            // the file.
            let known = stream.diagnostics.count
            while let start = try stream.readFlatNode(appendingTo: &batch.flat) {
                if let cut = stream.unreadableOffset, let end = batch.flat.events.last?.span.end.offset, end >= cut {
                    // The item runs into the unreadable byte: it may be cut short.
                    stream.stopAtUnreadable()
                    return stream.diagnostics
                }
                if stream.diagnostics.count == known, batch.flat.keysAreDistinctScalars(at: start) {
                    batch.entries.append(.flat(start))
                } else {
                    let node = try YAMLDocument.readNode(events: batch.flat.yamlEvents(from: start), stream: stream)
                    let refused = stream.takeDiagnostics(since: known)
                    if refused.isEmpty {
                        batch.entries.append(.item(item(node)))
                    } else {
                        let errors = refused.map { "\($0.code.rawValue) at \($0.span.start.line):\($0.span.start.column): \($0.message)" }
                        batch.entries.append(.item(.invalid(given: node, error: errors.joined(separator: "; "))))
                    }
                }
                if batch.entries.count >= batchSize { deliver(&batch) }
            }
            _ = try stream.next()  // document end
            _ = try stream.next()  // stream end, or a second document (reported)
        } catch {
            // The reason is already among the stream's diagnostics.
        }
        return stream.diagnostics
    }

    /// A request's usual item, `{"from": [s, r], "to": [s, r]}` of small integers, read off
    /// the JSON tape: the row move ``item(_:)`` reads from it by the general path, or nil for
    /// any other item.
    @inline(__always)
    package static func rowMove(_ node: JSONNode) -> Move? {
        guard let (f, t) = node.rowMoveNumbers else { return nil }
        return .row(from: Position(section: f.0, row: f.1), to: Position(section: t.0, row: t.1))
    }

    /// Decodes one item.
    public static func item<Node: DocumentNode>(_ node: Node) -> MoveItem {
        if let json = node as? JSONNode, let move = rowMove(json) { return .move(move) }
        guard let entries = node.entries else {
            return .invalid(given: node.tree, error: "a move is a mapping with 'from' and 'to', or 'section-from' and 'section-to'; found \(node.typeName)")
        }
        var from: Node?, to: Node?, sectionFrom: Node?, sectionTo: Node?
        var fromOffsets: Node?, toOffset: Node?, section: Node?
        for entry in entries {
            switch entry.name {
            case "from": from = entry.value
            case "to": to = entry.value
            case "section-from": sectionFrom = entry.value
            case "section-to": sectionTo = entry.value
            case "from-offsets": fromOffsets = entry.value
            case "to-offset": toOffset = entry.value
            case "section": section = entry.value
            default:
                return .invalid(given: node.tree, error: "unknown key '\(entry.name)' in a move; expected 'from' and 'to', 'section-from' and 'section-to', or 'from-offsets', 'to-offset' and 'section'")
            }
        }
        if fromOffsets != nil || toOffset != nil || section != nil {
            guard let fromOffsets, let toOffset, let section, from == nil, to == nil, sectionFrom == nil, sectionTo == nil else {
                return .invalid(given: node.tree, error: "an offset move needs exactly 'from-offsets', 'to-offset' and 'section'")
            }
            guard let items = fromOffsets.sequence, !items.isEmpty else {
                return .invalid(given: node.tree, error: "'from-offsets' must be a non-empty list of integers")
            }
            let offsets = items.compactMap(\.plainInteger)
            guard offsets.count == items.count else { return .invalid(given: node.tree, error: "'from-offsets' must be a non-empty list of integers") }
            guard let target = integer(toOffset) else { return .invalid(given: node.tree, error: "'to-offset' must be an integer") }
            guard let s = integer(section) else { return .invalid(given: node.tree, error: "'section' must be an integer") }
            return .offsets(fromOffsets: offsets, toOffset: target, section: s)
        }
        switch (from, to, sectionFrom, sectionTo) {
        case (let f?, let t?, nil, nil):
            guard let a = position(f) else { return .invalid(given: node.tree, error: "'from' must be [section, row]: two integers") }
            guard let b = position(t) else { return .invalid(given: node.tree, error: "'to' must be [section, row]: two integers") }
            return .move(.row(from: a, to: b))
        case (nil, nil, let f?, let t?):
            guard let a = integer(f) else { return .invalid(given: node.tree, error: "'section-from' must be an integer") }
            guard let b = integer(t) else { return .invalid(given: node.tree, error: "'section-to' must be an integer") }
            return .move(.section(from: a, to: b))
        default:
            return .invalid(given: node.tree, error: "a move needs exactly 'from' and 'to', or 'section-from' and 'section-to'")
        }
    }

    @inline(__always)
    static func integer(_ node: some DocumentNode) -> Int? { node.plainInteger }

    @inline(__always)
    static func position(_ node: some DocumentNode) -> Position? {
        guard let items = node.sequence, items.count == 2,
              let s = integer(items[items.startIndex]), let r = integer(items[items.index(after: items.startIndex)]) else { return nil }
        return Position(section: s, row: r)
    }
}

