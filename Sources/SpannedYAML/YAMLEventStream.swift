internal import CLibYAML
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One parse event with its span, as libyaml reports it, after SPEC §4's checks.
public enum YAMLEvent: Sendable, Hashable {
    /// A document begins.
    case documentStart(Span)
    /// The document ends.
    case documentEnd(Span)
    /// A sequence begins.
    case sequenceStart(Span)
    /// The innermost sequence ends.
    case sequenceEnd(Span)
    /// A mapping begins.
    case mappingStart(Span)
    /// The innermost mapping ends.
    case mappingEnd(Span)
    /// A scalar with its text and style.
    case scalar(String, ScalarStyle, Span)
    /// An alias (`*a`), already reported; it stands where a node would.
    case alias(Span)
    /// No more input.
    case streamEnd(Span)
}

/// Thrown when reading cannot go on; the reason is the last diagnostic recorded.
public struct YAMLStop: Error, Sendable {}

/// Where a stream's input starts in its file, when it reads part of one (a piece of a moves
/// file read on its own, see `BatchPipeline`): its marks count from there. A part always
/// starts at the beginning of a line, so columns need nothing added.
package struct StreamOrigin: Sendable, Hashable {
    /// Lines before the part, as libyaml counts line breaks.
    package var lines = 0
    /// Unicode scalars before the part (``Mark/offset``), as libyaml counts them.
    package var scalars = 0
    /// Bytes before the part, after a byte order mark (the offsets of reader errors).
    package var bytes = 0
    /// When the part starts inside the document's top-level block sequence, the line (1-based)
    /// that sequence started at: libyaml names it in errors ("while parsing a block collection
    /// started at line …"), and the part's own stream sees it start at its first line.
    package var sequenceLine: Int? = nil

    package init(lines: Int = 0, scalars: Int = 0, bytes: Int = 0, sequenceLine: Int? = nil) {
        self.lines = lines
        self.scalars = scalars
        self.bytes = bytes
        self.sequenceLine = sequenceLine
    }

    /// This origin moved past a part that was read whole and ended at `end` (its stream
    /// end's mark, counted from the part's start) after `bytes` bytes.
    package func advanced(by end: Mark, bytes count: Int) -> StreamOrigin {
        StreamOrigin(lines: lines + end.line - 1, scalars: scalars + end.offset, bytes: bytes + count, sequenceLine: sequenceLine)
    }
}

/// Reads libyaml events one at a time, enforcing SPEC §4 as they arrive:
/// anchors, aliases and tags are reported before anything could be expanded,
/// nesting is counted as it opens, and a second document stops the stream.
///
/// This is the only type that touches libyaml. It owns the parser and its input (a copy of
/// the bytes, or a file descriptor it reads as libyaml asks), and frees both when it goes away.
public final class YAMLEventStream {
    /// The file name used in diagnostics.
    public let file: String
    /// Everything reported so far, in the order found.
    public private(set) var diagnostics: [Diagnostic] = []

    private let limits: YAMLLimits
    /// Where the input starts in the file; zero unless the stream reads a part of it.
    private let origin: StreamOrigin
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// The bytes, when the input was handed in whole; empty when reading from a descriptor.
    private let input: UnsafeMutableBufferPointer<UInt8>
    /// Whether `input` was allocated here (else the caller's, for the stream's life).
    private let ownsInput: Bool
    /// The descriptor libyaml reads from, for streamed files (moves files of any size).
    private let source: DescriptorSource?
    private var depth = 0
    private var documents = 0
    private var finished = false

    /// Creates a stream over `bytes`. The caller checks the size limit before reading a file;
    /// this checks it again for bytes handed in directly.
    ///
    /// With `upToUnreadable`, libyaml is given only the bytes before the first one it could not
    /// read (invalid UTF-8, a control character), so every node before it is still read; the
    /// stream then stops with that byte's error (``unreadableOffset``). Without it, libyaml
    /// reads ahead and stops at such a byte before handing over the nodes in front of it.
    ///
    /// A UTF-8 byte order mark that opens the bytes is not part of the text: libyaml is given
    /// what follows it (with the encoding set, libyaml would read it as a character of the
    /// first line and indent that line's key by one), and offsets, lines and columns count
    /// from there, as an editor shows the file.
    public convenience init(bytes: some Collection<UInt8>, file: String, limits: YAMLLimits = .policy, upToUnreadable: Bool = false) {
        let text = bytes.dropFirst(ByteOrderMark.length(bytes))
        let input = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(text.count, 1))
        _ = input.initialize(from: text)
        self.init(input: input, count: text.count, owned: true, fileBytes: bytes.count, file: file, limits: limits, upToUnreadable: upToUnreadable)
    }

    /// A stream over `bytes`, read where they are: the caller keeps them alive and unchanged
    /// for the stream's life. A byte order mark is not looked for.
    package convenience init(borrowing bytes: UnsafeBufferPointer<UInt8>, file: String, limits: YAMLLimits, upToUnreadable: Bool) {
        let input = UnsafeMutableBufferPointer(mutating: bytes)
        self.init(input: input, count: bytes.count, owned: false, fileBytes: bytes.count, file: file, limits: limits, upToUnreadable: upToUnreadable)
    }

    private init(
        input: UnsafeMutableBufferPointer<UInt8>, count: Int, owned: Bool, fileBytes: Int, file: String, limits: YAMLLimits, upToUnreadable: Bool
    ) {
        self.file = file
        self.limits = limits
        origin = StreamOrigin()
        self.input = input
        ownsInput = owned
        source = nil
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        var length = count
        if upToUnreadable, var bad = UnreadableScan.first(in: UnsafeBufferPointer(rebasing: input[0..<length]), final: true).bad {
            bad.scalarOffset = UnreadableScan.scalars(UnsafeBufferPointer(rebasing: input[0..<bad.offset]))
            unreadable = bad
            length = bad.offset
        }
        yaml_parser_set_input_string(parser, input.baseAddress, length)
        if fileBytes > limits.maxBytes {
            report(.tooLarge, "file is \(fileBytes) bytes; at most \(limits.maxBytes) are allowed", Span(at: .start))
            finished = true
        }
    }

    /// Creates a stream that reads an open file as parsing goes, in 64 KiB pieces, so its
    /// memory does not grow with the file. The descriptor stays the caller's to close. A byte
    /// order mark that opens the file is skipped, as for bytes handed in whole.
    public convenience init(descriptor: Int32, file: String, limits: YAMLLimits = .stream, upToUnreadable: Bool = false) {
        self.init(descriptor: descriptor, file: file, limits: limits, upToUnreadable: upToUnreadable, from: nil)
    }

    /// A stream that reads the open file from `from`: the file's byte offset where the part
    /// to read starts (at the start of a line, the descriptor already there), and where that
    /// is in the text (``StreamOrigin``). No byte order mark is looked for there.
    package init(descriptor: Int32, file: String, limits: YAMLLimits, upToUnreadable: Bool, from: (offset: Int, origin: StreamOrigin)?) {
        self.file = file
        self.limits = limits
        self.origin = from?.origin ?? StreamOrigin()
        input = .allocate(capacity: 1)
        ownsInput = true
        source = DescriptorSource(descriptor, upToUnreadable: upToUnreadable, startingAt: from?.offset)
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input(parser, { data, buffer, size, read in
            guard let data, let buffer, let read else { return 0 }
            let source = Unmanaged<DescriptorSource>.fromOpaque(data).takeUnretainedValue()
            guard let n = source.read(into: buffer, size) else { return 0 }
            read.pointee = n
            return 1
        }, Unmanaged.passUnretained(source!).toOpaque())  // set just above, and kept for the parser's life
    }

    deinit {
        if holdsEvent { yaml_event_delete(current) }
        current.deallocate()
        yaml_parser_delete(parser)
        parser.deallocate()
        if ownsInput { input.deallocate() }
    }

    /// True once an error that stops the stream has been recorded.
    public private(set) var stopped = false

    /// The first byte libyaml could not read, when the input was cut before it (`upToUnreadable`).
    private var unreadable: UnreadableScan.Problem?

    /// The offset of the first unreadable byte once the input was cut there: a node that ends
    /// at or after it may have been cut short.
    /// In Unicode scalars, as ``Mark/offset``.
    public var unreadableOffset: Int? { (unreadable ?? source?.unreadable).map { origin.scalars + $0.scalarOffset } }

    /// Reports the unreadable byte the input was cut at (a reader that will not use the rest
    /// stops here) and stops the stream.
    package func stopAtUnreadable() {
        if reportCut() { _ = stop() }
    }

    /// Takes the diagnostics recorded since `count` out of the stream (a reader that reports
    /// them with the node they belong to, as a moves file does per item).
    package func takeDiagnostics(since count: Int) -> [Diagnostic] {
        guard diagnostics.count > count else { return [] }
        defer { diagnostics.removeSubrange(count...) }
        return Array(diagnostics[count...])
    }

    /// Reports the byte the input was cut at, once, and stops.
    private func reportCut() -> Bool {
        guard let problem = unreadable ?? source?.unreadable else { return false }
        reportReaderError(problem.message, offset: problem.offset, value: problem.value)
        return true
    }

    /// The event libyaml handed over last; freed when the next one is read.
    /// Held through a pointer so that reading it needs no exclusivity bookkeeping.
    private let current = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
    private var holdsEvent = false

    /// Reads the next event into `current`, applying every check; its kind and span.
    private func advance() throws(YAMLStop) -> (YAMLEventKind, Span) {
        while true {
            if holdsEvent {
                yaml_event_delete(current)
                holdsEvent = false
            }
            if finished { throw YAMLStop() }
            guard yaml_parser_parse(parser, current) == 1 else {
                // A node cut at an unreadable byte: that byte is the error, not the cut.
                if !reportCut() { reportParserError() }
                throw stop()
            }
            holdsEvent = true
            let span = Span(start: mark(current.pointee.start_mark), end: mark(current.pointee.end_mark))
            switch current.pointee.type {
            case YAML_STREAM_END_EVENT:
                if reportCut() { throw stop() }
                finished = true
                return (.streamEnd, span)
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    report(.yamlMultiDocument, "a file holds one YAML document; a second one starts here", span)
                    throw stop()
                }
                return (.documentStart, span)
            case YAML_DOCUMENT_END_EVENT:
                return (.documentEnd, span)
            case YAML_ALIAS_EVENT:
                report(.yamlAlias, "aliases are not allowed; write the value out in full", span,
                       help: "YAML anchors and aliases are rejected so a file cannot expand into something huge")
                try checkErrorCount()
                return (.alias, span)
            case YAML_SCALAR_EVENT:
                try checkProperties(anchor: current.pointee.data.scalar.anchor, tag: current.pointee.data.scalar.tag, span: span)
                return (.scalar, span)
            case YAML_SEQUENCE_START_EVENT:
                try checkProperties(anchor: current.pointee.data.sequence_start.anchor, tag: current.pointee.data.sequence_start.tag, span: span)
                try enter(span)
                return (.sequenceStart, span)
            case YAML_SEQUENCE_END_EVENT:
                depth -= 1
                return (.sequenceEnd, span)
            case YAML_MAPPING_START_EVENT:
                try checkProperties(anchor: current.pointee.data.mapping_start.anchor, tag: current.pointee.data.mapping_start.tag, span: span)
                try enter(span)
                return (.mappingStart, span)
            case YAML_MAPPING_END_EVENT:
                depth -= 1
                return (.mappingEnd, span)
            default:
                continue  // stream start
            }
        }
    }

    /// Whether the event read last is a document start without directives (`%YAML`, `%TAG`)
    /// or a document end that the text does not write (`...`).
    package var lastEventIsPlainDocumentBoundary: Bool {
        guard holdsEvent else { return false }
        switch current.pointee.type {
        case YAML_DOCUMENT_START_EVENT:
            let d = current.pointee.data.document_start
            return d.version_directive == nil && d.tag_directives.start == d.tag_directives.end
        case YAML_DOCUMENT_END_EVENT:
            return current.pointee.data.document_end.implicit != 0
        default:
            return false
        }
    }

    /// Whether the event read last starts a block sequence (`- ` entries, not `[...]`).
    package var lastEventIsBlockSequence: Bool {
        holdsEvent && current.pointee.type == YAML_SEQUENCE_START_EVENT
            && current.pointee.data.sequence_start.style == YAML_BLOCK_SEQUENCE_STYLE
    }

    /// The next event. Throws ``YAMLStop`` after recording why the stream cannot go on.
    public func next() throws(YAMLStop) -> YAMLEvent {
        let (kind, span) = try advance()
        switch kind {
        case .documentStart: return .documentStart(span)
        case .documentEnd: return .documentEnd(span)
        case .sequenceStart: return .sequenceStart(span)
        case .sequenceEnd: return .sequenceEnd(span)
        case .mappingStart: return .mappingStart(span)
        case .mappingEnd: return .mappingEnd(span)
        case .alias: return .alias(span)
        case .streamEnd: return .streamEnd(span)
        case .scalar:
            let data = current.pointee.data.scalar
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            return .scalar(text, style(data.style), span)
        }
    }

    /// Reads the next complete node of a sequence after the nodes already in `flat` (a batch
    /// of items in one buffer), without making a string per scalar; returns the index of its
    /// first event, or nil, reading nothing, when the sequence ends instead.
    package func readFlatNode(appendingTo flat: inout YAMLFlatNode) throws(YAMLStop) -> Int? {
        let start = flat.events.count
        var depth = 0
        repeat {
            let (kind, span) = try advance()
            switch kind {
            case .sequenceEnd, .mappingEnd:
                if depth == 0 { return nil }
                depth -= 1
            case .sequenceStart, .mappingStart:
                depth += 1
            case .scalar:
                let data = current.pointee.data.scalar
                flat.appendScalar(UnsafeBufferPointer(start: data.value, count: data.length), style: style(data.style), span: span)
                continue
            case .documentStart, .documentEnd, .alias, .streamEnd:
                break
            }
            flat.append(kind, span: span)
        } while depth > 0
        return start
    }

    /// Records a diagnostic found by a consumer of the stream (a duplicate key, say).
    public func report(
        _ code: DiagnosticCode, _ message: String, _ span: Span, help: String? = nil
    ) {
        diagnostics.append(Diagnostic(code: code, message: message, file: file, span: span, help: help))
    }

    // MARK: - Checks

    private func stop() -> YAMLStop {
        finished = true
        stopped = true
        return YAMLStop()
    }

    private func checkErrorCount() throws(YAMLStop) {
        if diagnostics.count >= limits.maxErrors {
            // At the error limit, so there is a last diagnostic.
            report(.yamlSyntax, "too many errors in this file; stopped reading", diagnostics.last!.span)
            throw stop()
        }
    }

    private func enter(_ span: Span) throws(YAMLStop) {
        depth += 1
        if depth > limits.maxDepth {
            report(.tooDeep, "nesting is deeper than \(limits.maxDepth) levels", span,
                   help: "flatten the structure; no valid file nests this deep")
            throw stop()
        }
    }

    /// Reports an anchor or a tag (almost no node has one: the test is inlined, the report not).
    @inline(__always)
    private func checkProperties(
        anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, span: Span
    ) throws(YAMLStop) {
        if anchor != nil || tag != nil { try reportProperties(anchor: anchor, tag: tag, span: span) }
    }

    @inline(never)
    private func reportProperties(
        anchor: UnsafeMutablePointer<yaml_char_t>?, tag: UnsafeMutablePointer<yaml_char_t>?, span: Span
    ) throws(YAMLStop) {
        if let anchor {
            report(.yamlAlias, "anchors are not allowed (found '&\(String(cString: anchor))')", span,
                   help: "YAML anchors and aliases are rejected so a file cannot expand into something huge")
            try checkErrorCount()
        }
        if let tag {
            report(.yamlTag, "tags are not allowed (found '\(String(cString: tag))')", span,
                   help: "values are read as written; remove the tag")
            try checkErrorCount()
        }
    }

    private func reportParserError() {
        let p = parser.pointee
        let problem = p.problem.map { String(cString: $0) } ?? "unknown problem"
        switch p.error {
        case YAML_READER_ERROR where source?.readError != nil:
            // The file could not be read on (an I/O error): not a fault of its text.
            let code = source?.readError ?? 0
            report(.unreadable, "cannot read the file: " + SystemError.describe(code), Span(at: .start))
        case YAML_READER_ERROR:
            reportReaderError(problem, offset: p.problem_offset, value: Int(p.problem_value))
        case YAML_SCANNER_ERROR where problem.contains("cannot start any token") && isTab(at: p.problem_mark):
            report(.yamlSyntax, "tabs cannot indent YAML; indent with spaces", Span(at: mark(p.problem_mark)),
                   help: "replace the tab at the start of this line with spaces")
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            var message = problem
            if let context = p.context.map({ String(cString: $0) }) {
                message += " \(context)"
                // The top-level sequence is the one thing that starts at the part's first byte.
                let line = p.context_mark.index == 0 ? origin.sequenceLine : nil
                message += " started at line \(line ?? origin.lines + p.context_mark.line + 1)"
            }
            report(.yamlSyntax, "invalid YAML: \(message)", Span(at: mark(p.problem_mark)))
        case YAML_MEMORY_ERROR:
            report(.yamlSyntax, "out of memory while reading YAML", Span(at: .start))
        default:
            report(.yamlSyntax, "invalid YAML: \(problem)", Span(at: mark(p.problem_mark)))
        }
    }

    /// Whether the character at `m` is a tab (input handed in whole; a streamed file is read
    /// again up to that line).
    private func isTab(at m: yaml_mark_t) -> Bool {
        var counter = LineCounter(), found = false, done = false
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes where !done {
                if counter.startsCharacter(byte) && counter.line == m.line && counter.column == m.column {
                    found = byte == 0x09
                    done = true
                    return
                }
                counter.add(byte)
                if counter.line > m.line { done = true }
            }
        }
        if let source {
            source.rescan(upTo: Int.max, scan)
        } else {
            scan(UnsafeBufferPointer(input))
        }
        return found
    }

    /// A reader error (libyaml's, or found before libyaml read the byte) at a byte offset.
    private func reportReaderError(_ problem: String, offset: Int, value: Int) {
        var message = problem
        if problem.contains("UTF-8") || problem.contains("octet") {
            message = "invalid UTF-8: \(problem) 0x\(String(UInt8(truncatingIfNeeded: value), radix: 16, uppercase: true))"
        } else if value >= 0 {
            message = "\(problem) (U+\(String(value, radix: 16, uppercase: true)))"
        }
        report(.yamlSyntax, message, Span(at: markForOffset(offset)))
    }

    // MARK: - Conversions

    private func mark(_ m: yaml_mark_t) -> Mark {
        Mark(line: origin.lines + m.line + 1, column: m.column + 1, offset: origin.scalars + m.index)
    }

    /// libyaml gives reader errors as a byte offset only; count lines and scalars up to it
    /// (for a streamed file, by reading it again from the start).
    private func markForOffset(_ offset: Int) -> Mark {
        var counter = LineCounter()
        func count(_ bytes: UnsafeBufferPointer<UInt8>) {
            for byte in bytes { counter.add(byte) }
        }
        if let source {
            source.rescan(upTo: offset, count)
        } else {
            count(UnsafeBufferPointer(rebasing: input[0..<min(offset, input.count)]))
        }
        return Mark(line: origin.lines + counter.line + 1, column: counter.column + 1, offset: origin.bytes + offset)
    }

    private func style(_ s: yaml_scalar_style_t) -> ScalarStyle {
        switch s {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: .literal
        case YAML_FOLDED_SCALAR_STYLE: .folded
        default: .plain
        }
    }
}

/// A file descriptor that libyaml's read handler pulls from.
final class DescriptorSource {
    let descriptor: Int32
    /// Whether libyaml is given only the bytes before the first unreadable one.
    let upToUnreadable: Bool
    /// That byte, once found; from then on the file ends for libyaml.
    private(set) var unreadable: UnreadableScan.Problem?
    /// Bytes handed over so far, and the start of an incomplete UTF-8 sequence held back for the next read.
    private var delivered = 0
    private var deliveredScalars = 0
    private var held: [UInt8] = []
    /// The error of a read that failed (libyaml then stops with an "input error").
    private(set) var readError: Int32?

    /// `startingAt`: the file's offset the descriptor was put at, to read the rest of the
    /// file from there (no byte order mark is looked for); nil to read it from its start.
    init(_ descriptor: Int32, upToUnreadable: Bool = false, startingAt: Int? = nil) {
        self.descriptor = descriptor
        self.upToUnreadable = upToUnreadable
        if let startingAt {
            skipped = startingAt
            opened = true
        }
    }

    /// The bytes of a byte order mark that opened the file (0 or 3): never handed to libyaml,
    /// and skipped when the file is read again for an error's position.
    private var skipped = 0
    /// Whether the first bytes were looked at for a byte order mark.
    private var opened = false

    /// Reads at most `size` bytes into `buffer`; 0 at the end; nil on an error.
    func read(into buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int? {
        guard upToUnreadable else { return rawRead(into: buffer, size) }
        if unreadable != nil { return 0 }
        // Hold back a sequence cut by the read's end; scan what is complete.
        let carried = held.count
        guard size > carried else { return rawRead(into: buffer, size) }
        for (k, b) in held.enumerated() { buffer[k] = b }
        held.removeAll()
        guard let n = rawRead(into: buffer + carried, size - carried) else { return nil }
        let total = carried + n
        let scan = UnreadableScan.first(in: UnsafeBufferPointer(start: buffer, count: total), final: n == 0)
        if var bad = scan.bad {
            // Hand over the bytes before it; the next read ends the file for libyaml.
            let local = bad.offset
            bad.offset += delivered
            bad.scalarOffset = deliveredScalars + UnreadableScan.scalars(UnsafeBufferPointer(start: buffer, count: local))
            unreadable = bad
            delivered += local
            return local
        }
        for k in scan.complete..<total { held.append(buffer[k]) }
        delivered += scan.complete
        deliveredScalars += UnreadableScan.scalars(UnsafeBufferPointer(start: buffer, count: scan.complete))
        return scan.complete
    }

    private func rawRead(into buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int? {
        guard opened else { return firstRead(into: buffer, size) }
        while true {
            let n = systemRead(descriptor, buffer, size)
            if n >= 0 { return n }
            if errno != EINTR {
                readError = errno
                return nil
            }
        }
    }

    /// The first read: at least three bytes unless the file is shorter (a pipe may hand them
    /// over one by one), without a byte order mark that opens them.
    private func firstRead(into buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int? {
        opened = true
        var n = 0
        while n < Swift.min(3, size) {
            guard let got = rawRead(into: buffer + n, size - n) else { return nil }
            if got == 0 { break }
            n += got
        }
        skipped = ByteOrderMark.length(UnsafeBufferPointer(start: buffer, count: n))
        guard skipped > 0 else { return n }
        memmove(buffer, buffer + skipped, n - skipped)
        guard n - skipped > 0 else { return rawRead(into: buffer, size) }  // nothing after it yet
        return n - skipped
    }

    /// Hands the file's first `offset` bytes to `body` piece by piece (for error positions).
    func rescan(upTo offset: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var position = 0
        while position < offset {
            let want = min(buffer.count, offset - position)
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, want, off_t(skipped + position)) }
            if n <= 0 { return }
            buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<n])) }
            position += n
        }
    }
}

/// Line breaks as libyaml reads them: LF, CR, CR LF, NEL (U+0085), LS (U+2028), PS (U+2029).
package enum LineBreaks {
    /// Whether `byte`, after `previous` and `beforePrevious`, ends a line break: nil if not;
    /// else how many bytes of the break came before it (0 for LF or CR, 1 for NEL, 2 for LS
    /// and PS), or -1 for the LF of a CR LF (the CR ended the line).
    @inline(__always)
    package static func breakLength(ending byte: UInt8, previous: UInt8, beforePrevious: UInt8) -> Int? {
        switch byte {
        case 0x0A: previous == 0x0D ? -1 : 0
        case 0x0D: 0
        case 0x85 where previous == 0xC2: 1
        case 0xA8 where previous == 0x80 && beforePrevious == 0xE2, 0xA9 where previous == 0x80 && beforePrevious == 0xE2: 2
        default: nil
        }
    }
}

/// Counts lines and columns in UTF-8 bytes as libyaml does, so that positions found by reading
/// the bytes again (reader errors, which libyaml gives as an offset) agree with libyaml's
/// marks: a line break is LF, CR, CR LF, NEL (U+0085), LS (U+2028) or PS (U+2029); columns
/// count Unicode scalars.
struct LineCounter {
    /// 0-based, after the bytes added.
    private(set) var line = 0
    /// 0-based column of the next character.
    private(set) var column = 0
    private var previous: UInt8 = 0, beforePrevious: UInt8 = 0

    mutating func add(_ b: UInt8) {
        defer { beforePrevious = previous; previous = b }
        switch LineBreaks.breakLength(ending: b, previous: previous, beforePrevious: beforePrevious) {
        case nil:
            if b & 0xC0 != 0x80 { column += 1 }
        case let lead?:
            if lead >= 0 { line += 1 }  // not the LF of a CR LF, which the CR counted
            column = 0
        }
    }

    /// Whether `b`, the next byte, starts a character of its own (not the rest of a UTF-8
    /// sequence, nor the LF of a CR LF).
    func startsCharacter(_ b: UInt8) -> Bool {
        b & 0xC0 != 0x80 && !(b == 0x0A && previous == 0x0D)
    }
}

/// The UTF-8 byte order mark (EF BB BF), which may open a file but is not part of its text.
package enum ByteOrderMark {
    /// 3 when `bytes` open with a byte order mark, else 0.
    package static func length(_ bytes: some Collection<UInt8>) -> Int {
        var i = bytes.makeIterator()
        return i.next() == 0xEF && i.next() == 0xBB && i.next() == 0xBF ? 3 : 0
    }
}

private func systemRead(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int {
    read(fd, buffer, size)
}

/// Finds the first byte libyaml's reader refuses: malformed UTF-8, or a character outside
/// YAML's printable set (libyaml's `reader.c` checks, with its messages).
package enum UnreadableScan {
    package struct Problem {
        /// In bytes.
        var offset: Int
        let message: String
        let value: Int
        /// The same place in Unicode scalars (as ``Mark/offset``).
        var scalarOffset = 0
    }

    /// Unicode scalars in valid UTF-8 bytes.
    static func scalars(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// The first unreadable byte of `bytes`, and how many leading bytes are complete characters
    /// (with `final` false, a sequence cut by the end is not an error: it is left out of `complete`).
    package static func first(in bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> (bad: Problem?, complete: Int) {
        var k = 0
        let n = bytes.count
        while k < n {
            let b = bytes[k]
            if b < 0x80 {
                if !(b == 0x09 || b == 0x0A || b == 0x0D || (b >= 0x20 && b <= 0x7E)) {
                    return (Problem(offset: k, message: "control characters are not allowed", value: Int(b)), k)
                }
                k += 1
                continue
            }
            let width = b & 0xE0 == 0xC0 ? 2 : b & 0xF0 == 0xE0 ? 3 : b & 0xF8 == 0xF0 ? 4 : 0
            guard width > 0 else { return (Problem(offset: k, message: "invalid leading UTF-8 octet", value: Int(b)), k) }
            guard k + width <= n else {
                if final { return (Problem(offset: k, message: "incomplete UTF-8 octet sequence", value: -1), k) }
                return (nil, k)
            }
            var value = Int(b) & (width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
            for m in 1..<width {
                let c = bytes[k + m]
                guard c & 0xC0 == 0x80 else { return (Problem(offset: k + m, message: "invalid trailing UTF-8 octet", value: Int(c)), k) }
                value = value << 6 | Int(c & 0x3F)
            }
            let shortest = width == 2 ? value >= 0x80 : width == 3 ? value >= 0x800 : value >= 0x10000
            guard shortest else { return (Problem(offset: k, message: "invalid length of a UTF-8 sequence", value: -1), k) }
            guard value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else {
                return (Problem(offset: k, message: "invalid Unicode character", value: -1), k)
            }
            if !(value == 0x85 || (value >= 0xA0 && value <= 0xD7FF) || (value >= 0xE000 && value <= 0xFFFD) || value >= 0x10000) {
                return (Problem(offset: k, message: "control characters are not allowed", value: value), k)
            }
            k += width
        }
        return (nil, n)
    }
}
