/// Builds one document's node tree from a ``YAMLEventStream``, collecting every YAML-level
/// problem (duplicate keys, aliases, tags, a second document) rather than stopping at the first.
public enum YAMLDocument {
    /// The outcome of reading a file: its root (absent when reading had to stop) and the problems found.
    public struct Result: Sendable {
        /// The document's root node, or nil when the YAML could not be read.
        public var root: YAMLNode?
        /// YAML-level diagnostics in the order found.
        public var diagnostics: [Diagnostic]
    }

    /// Parses `bytes` as one YAML document.
    public static func parse(
        _ bytes: some Collection<UInt8>, file: String, limits: YAMLLimits = .policy
    ) -> Result {
        let stream = YAMLEventStream(bytes: bytes, file: file, limits: limits)
        var root: YAMLNode?
        do {
            root = try readDocument(stream)
        } catch {
            root = nil
        }
        return Result(root: stream.stopped ? nil : root, diagnostics: stream.diagnostics)
    }

    private static func readDocument(_ stream: YAMLEventStream) throws(YAMLStop) -> YAMLNode? {
        guard case .documentStart = try stream.next() else {
            stream.report(.yamlEmpty, "the file is empty; expected a YAML mapping", Span(at: .start))
            return nil
        }
        let root = try readNode(stream, first: try stream.next())
        _ = try stream.next()  // document end
        _ = try stream.next()  // the stream's end (a second document was reported by the stream)
        if case .scalar(let text, .plain) = root.content, text.isEmpty {
            stream.report(.yamlEmpty, "the document is empty; expected a YAML mapping", Span(at: .start))
            return nil
        }
        return root
    }

    /// Reads the node that starts with `first` (for callers that stream a long list item by item).
    public static func readNode(_ stream: YAMLEventStream, first: YAMLEvent) throws(YAMLStop) -> YAMLNode {
        try readNode(first: first, next: { () throws(YAMLStop) -> YAMLEvent in try stream.next() }, stream: stream)
    }

    /// Builds the node of events already read from `stream` (a whole node's worth, in order).
    public static func readNode(events: [YAMLEvent], stream: YAMLEventStream) throws(YAMLStop) -> YAMLNode {
        var index = 1
        return try readNode(first: events[0], next: { () throws(YAMLStop) -> YAMLEvent in
            guard index < events.count else { throw YAMLStop() }
            index += 1
            return events[index - 1]
        }, stream: stream)
    }

    private static func readNode(
        first: YAMLEvent, next: () throws(YAMLStop) -> YAMLEvent, stream: YAMLEventStream
    ) throws(YAMLStop) -> YAMLNode {
        switch first {
        case .scalar(let text, let style, let span):
            return YAMLNode(.scalar(text, style), span: span)
        case .alias(let span):
            return YAMLNode(.invalid, span: span)
        case .sequenceStart(let start):
            var items: [YAMLNode] = []
            while true {
                let event = try next()
                if case .sequenceEnd(let end) = event {
                    return YAMLNode(.sequence(items), span: Span(start: start.start, end: end.end))
                }
                items.append(try readNode(first: event, next: next, stream: stream))
            }
        case .mappingStart(let start):
            var entries: [YAMLEntry] = []
            // Most mappings are small, where a linear scan beats hashing; big ones switch to a dictionary
            // so a hostile file with a million keys stays linear.
            var seen: [(String, Span)] = []
            var seenIndex: [String: Span] = [:]
            while true {
                let event = try next()
                if case .mappingEnd(let end) = event {
                    return YAMLNode(.mapping(entries), span: Span(start: start.start, end: end.end))
                }
                let key = try readNode(first: event, next: next, stream: stream)
                let value = try readNode(first: try next(), next: next, stream: stream)
                guard case .scalar(let name, _) = key.content else {
                    if !key.isInvalid {
                        stream.report(.typeMismatch, "mapping keys must be scalars, found \(key.typeName)", key.span)
                    }
                    continue
                }
                let earlier = seen.count < 16 ? seen.first(where: { $0.0 == name })?.1 : seenIndex[name]
                if let first = earlier {
                    stream.report(.duplicateKey, "duplicate key '\(name)' (first at line \(first.start.line))", key.span,
                                  help: "each key may appear once in a mapping; remove one of them")
                    continue
                }
                if seen.count < 16 {
                    seen.append((name, key.span))
                    if seen.count == 16 { for (k, v) in seen { seenIndex[k] = v } }
                } else {
                    seenIndex[name] = key.span
                }
                entries.append(YAMLEntry(key: key, value: value))
            }
        case .documentStart(let span), .documentEnd(let span), .sequenceEnd(let span),
            .mappingEnd(let span), .streamEnd(let span):
            // libyaml never produces these where a node is expected; treat as malformed input.
            stream.report(.yamlSyntax, "invalid YAML: expected a node", span)
            throw YAMLStop()
        }
    }
}
