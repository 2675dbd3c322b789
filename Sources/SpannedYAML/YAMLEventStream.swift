internal import CLibYAML

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

/// Reads libyaml events one at a time, enforcing SPEC §4 as they arrive:
/// anchors, aliases and tags are reported before anything could be expanded,
/// nesting is counted as it opens, and a second document stops the stream.
///
/// This is the only type that touches libyaml. It owns the parser and a copy of the
/// input, and frees both when it goes away.
public final class YAMLEventStream {
    /// The file name used in diagnostics.
    public let file: String
    /// Everything reported so far, in the order found.
    public private(set) var diagnostics: [Diagnostic] = []

    private let limits: YAMLLimits
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    private let input: UnsafeMutableBufferPointer<UInt8>
    private var depth = 0
    private var documents = 0
    private var finished = false

    /// Creates a stream over `bytes`. The caller checks the size limit before reading a file;
    /// this checks it again for bytes handed in directly.
    public init(bytes: some Collection<UInt8>, file: String, limits: YAMLLimits = .policy) {
        self.file = file
        self.limits = limits
        input = .allocate(capacity: max(bytes.count, 1))
        _ = input.initialize(from: bytes)
        parser = .allocate(capacity: 1)
        yaml_parser_initialize(parser)
        yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
        yaml_parser_set_input_string(parser, input.baseAddress, bytes.count)
        if bytes.count > limits.maxBytes {
            report(.tooLarge, "file is \(bytes.count) bytes; at most \(limits.maxBytes) are allowed", Span(at: .start))
            finished = true
        }
    }

    deinit {
        yaml_parser_delete(parser)
        parser.deallocate()
        input.deallocate()
    }

    /// True once an error that stops the stream has been recorded.
    public private(set) var stopped = false

    /// The next event. Throws ``YAMLStop`` after recording why the stream cannot go on.
    public func next() throws(YAMLStop) -> YAMLEvent {
        if finished { throw YAMLStop() }
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else {
            reportParserError()
            throw stop()
        }
        defer { yaml_event_delete(&event) }
        let span = Span(start: mark(event.start_mark), end: mark(event.end_mark))
        switch event.type {
        case YAML_STREAM_START_EVENT:
            return try next()
        case YAML_STREAM_END_EVENT:
            finished = true
            return .streamEnd(span)
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                report(.yamlMultiDocument, "a file holds one YAML document; a second one starts here", span)
                throw stop()
            }
            return .documentStart(span)
        case YAML_DOCUMENT_END_EVENT:
            return .documentEnd(span)
        case YAML_ALIAS_EVENT:
            report(.yamlAlias, "aliases are not allowed; write the value out in full", span,
                   help: "YAML anchors and aliases are rejected so a file cannot expand into something huge")
            try checkErrorCount()
            return .alias(span)
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            try checkProperties(anchor: data.anchor, tag: data.tag, span: span)
            let text = String(decoding: UnsafeBufferPointer(start: data.value, count: data.length), as: UTF8.self)
            return .scalar(text, style(data.style), span)
        case YAML_SEQUENCE_START_EVENT:
            let data = event.data.sequence_start
            try checkProperties(anchor: data.anchor, tag: data.tag, span: span)
            try enter(span)
            return .sequenceStart(span)
        case YAML_SEQUENCE_END_EVENT:
            depth -= 1
            return .sequenceEnd(span)
        case YAML_MAPPING_START_EVENT:
            let data = event.data.mapping_start
            try checkProperties(anchor: data.anchor, tag: data.tag, span: span)
            try enter(span)
            return .mappingStart(span)
        case YAML_MAPPING_END_EVENT:
            depth -= 1
            return .mappingEnd(span)
        default:
            return try next()
        }
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

    private func checkProperties(
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
        case YAML_READER_ERROR:
            let at = markForOffset(p.problem_offset)
            var message = problem
            if problem.contains("UTF-8") || problem.contains("octet") {
                message = "invalid UTF-8: \(problem) 0x\(String(UInt8(truncatingIfNeeded: p.problem_value), radix: 16, uppercase: true))"
            } else if p.problem_value >= 0 {
                message = "\(problem) (U+\(String(p.problem_value, radix: 16, uppercase: true)))"
            }
            report(.yamlSyntax, message, Span(at: at))
        case YAML_SCANNER_ERROR, YAML_PARSER_ERROR:
            var message = problem
            if let context = p.context.map({ String(cString: $0) }) {
                message += " \(context)"
                message += " started at line \(p.context_mark.line + 1)"
            }
            report(.yamlSyntax, "invalid YAML: \(message)", Span(at: mark(p.problem_mark)))
        case YAML_MEMORY_ERROR:
            report(.yamlSyntax, "out of memory while reading YAML", Span(at: .start))
        default:
            report(.yamlSyntax, "invalid YAML: \(problem)", Span(at: mark(p.problem_mark)))
        }
    }

    // MARK: - Conversions

    private func mark(_ m: yaml_mark_t) -> Mark {
        Mark(line: m.line + 1, column: m.column + 1, offset: m.index)
    }

    /// libyaml gives reader errors as a byte offset only; count lines and scalars up to it.
    private func markForOffset(_ offset: Int) -> Mark {
        var line = 1, column = 1
        let end = min(offset, input.count)
        var i = 0
        while i < end {
            let byte = input[i]
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return Mark(line: line, column: column, offset: offset)
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
