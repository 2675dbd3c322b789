/// The kind of a parse event, without its payload.
package enum YAMLEventKind: UInt8, Sendable, Hashable {
    case documentStart, documentEnd, sequenceStart, sequenceEnd, mappingStart, mappingEnd, scalar, alias, streamEnd
}

/// One node's events in flat form: kinds and spans in one array, scalar bytes in another.
/// Reading a long list item by item into one reused `YAMLFlatNode` makes no string per scalar,
/// which is what lets `check --moves` keep pace with libyaml.
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
    }

    /// The events in order.
    package private(set) var events: [Event] = []
    /// Every scalar's bytes, back to back.
    package private(set) var text: [UInt8] = []

    /// Creates an empty node.
    package init() {
        events.reserveCapacity(16)
        text.reserveCapacity(64)
    }

    mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        text.removeAll(keepingCapacity: true)
    }

    mutating func append(_ kind: YAMLEventKind, span: Span) {
        events.append(Event(kind: kind, style: .plain, span: span, text: 0..<0))
    }

    mutating func appendScalar(_ bytes: UnsafeBufferPointer<UInt8>, style: ScalarStyle, span: Span) {
        let start = text.count
        text.append(contentsOf: bytes)
        events.append(Event(kind: .scalar, style: style, span: span, text: start..<text.count))
    }

    /// Whether event `i` is a scalar whose text is exactly `word`.
    package func scalar(_ i: Int, is word: StaticString) -> Bool {
        let e = events[i]
        guard e.kind == .scalar, e.text.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { w in
            var k = 0
            for b in text[e.text] {
                if b != w[k] { return false }
                k += 1
            }
            return true
        }
    }

    /// Event `i` as a plain integer `-?[0-9]+` that fits an `Int`, else nil.
    package func plainInteger(_ i: Int) -> Int? {
        let e = events[i]
        guard e.kind == .scalar, e.style == .plain, !e.text.isEmpty else { return nil }
        var k = e.text.lowerBound
        let negative = text[k] == UInt8(ascii: "-")
        if negative { k += 1 }
        guard k < e.text.upperBound else { return nil }
        var value = 0
        while k < e.text.upperBound {
            let b = text[k]
            guard b >= 48 && b <= 57 else { return nil }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = negative ? m.subtractingReportingOverflow(Int(b - 48)) : m.addingReportingOverflow(Int(b - 48))
            guard !o1 && !o2 else { return nil }
            value = a
            k += 1
        }
        return value
    }

    /// The events as ``YAMLEvent`` values, for building a node the ordinary way.
    package var yamlEvents: [YAMLEvent] {
        events.map { e in
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
