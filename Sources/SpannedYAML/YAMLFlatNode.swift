/// The kind of a parse event, without its payload.
package enum YAMLEventKind: UInt8, Sendable, Hashable {
    case documentStart, documentEnd, sequenceStart, sequenceEnd, mappingStart, mappingEnd, scalar, alias, streamEnd
}

/// One node's events in flat form: kinds and spans in one array, scalar bytes in another.
/// Reading a long list item by item into one reused `YAMLFlatNode` makes no string per scalar,
/// which is what lets `check --moves` keep pace with libyaml; the moves decoder reads it in
/// place through `FlatNode` (ReorderPolicy), a `DocumentNode`.
package struct YAMLFlatNode: Sendable {
    /// One event; scalars point into ``text``.
    package struct Event: Sendable, Hashable {
        /// The event's kind.
        package var kind: YAMLEventKind
        /// The scalar's style (plain for other kinds).
        package var style: ScalarStyle
        /// Where the event is.
        package var span: Span
        /// The scalar's bytes in ``YAMLFlatNode/text``.
        package var text: Range<Int>
        /// One past the last event of the node this event starts (its end event's index + 1;
        /// the next index for a scalar), so a reader skips a node without walking it.
        package var end: Int
    }

    /// The events in order.
    package private(set) var events: [Event] = []
    /// Every scalar's bytes, back to back.
    package private(set) var text: [UInt8] = []
    /// The starts of the lists and mappings not closed yet.
    private var open: [Int] = []

    /// Creates an empty node.
    package init() {
        events.reserveCapacity(16)
        text.reserveCapacity(64)
        open.reserveCapacity(8)
    }

    package mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func append(_ kind: YAMLEventKind, span: Span) {
        let i = events.count
        events.append(Event(kind: kind, style: .plain, span: span, text: 0..<0, end: i + 1))
        switch kind {
        case .sequenceStart, .mappingStart: open.append(i)
        case .sequenceEnd, .mappingEnd: if let start = open.popLast() { events[start].end = i + 1 }
        case .scalar, .alias, .documentStart, .documentEnd, .streamEnd: break
        }
    }

    @inline(__always)
    mutating func appendScalar(_ bytes: UnsafeBufferPointer<UInt8>, style: ScalarStyle, span: Span) {
        let start = text.count
        if bytes.count <= 8 {
            // A move's scalars are a few bytes (`from`, `12`): byte by byte costs a third of
            // the general append's bookkeeping.
            for byte in bytes { text.append(byte) }
        } else {
            text.append(contentsOf: bytes)
        }
        events.append(Event(kind: .scalar, style: style, span: span, text: start..<text.count, end: events.count + 1))
    }

    /// The events from index `start` on (the last node of a batch) as ``YAMLEvent`` values,
    /// for building a node the ordinary way.
    package func yamlEvents(from start: Int) -> [YAMLEvent] {
        events[start...].map { e in
            switch e.kind {
            case .documentStart: .documentStart(e.span)
            case .documentEnd: .documentEnd(e.span)
            case .sequenceStart: .sequenceStart(e.span)
            case .sequenceEnd: .sequenceEnd(e.span)
            case .mappingStart: .mappingStart(e.span)
            case .mappingEnd: .mappingEnd(e.span)
            case .alias: .alias(e.span)
            case .streamEnd: .streamEnd(e.span)
            case .scalar: .scalar(String(decoding: text[e.text], as: UTF8.self), e.style, e.span)
            }
        }
    }
}
