import SpannedYAML

/// One node of a ``YAMLFlatNode`` read in place: how `MovesFile.item`, the one decoder of a
/// moves item, reads an item of a moves file without building a tree or a string per scalar.
///
/// A view is two buffer pointers and an event index, so it costs no reference counting; it is
/// valid only inside ``YAMLFlatNode/decodedMoveItem(at:)``. Decoded moves hold no part of it, and an
/// invalid item's echo (``tree``) copies what it needs.
struct FlatNode: DocumentNode {
    let events: UnsafeBufferPointer<YAMLFlatNode.Event>
    let text: UnsafeBufferPointer<UInt8>
    /// The node's first event.
    let index: Int

    private var event: YAMLFlatNode.Event { events[index] }

    // Kinds are told apart by pattern, not `==`: the enums live in SpannedYAML, and their
    // synthesized `==` is reached through a protocol witness from here (a call per test).
    private var isScalar: Bool {
        if case .scalar = event.kind { true } else { false }
    }

    /// One past the node's last event.
    var end: Int { events[index].end }

    var span: Span {
        switch event.kind {
        case .sequenceStart, .mappingStart: Span(start: event.span.start, end: events[end - 1].span.end)
        case .scalar, .alias, .sequenceEnd, .mappingEnd, .documentStart, .documentEnd, .streamEnd: event.span
        }
    }

    private var bytes: Slice<UnsafeBufferPointer<UInt8>> { text[event.text] }

    var scalar: String? { isScalar ? String(decoding: bytes, as: UTF8.self) : nil }

    /// The node's text as a mapping's key: a known key's string when it is one (no string
    /// made, `KnownKeys`), "" when it is not a scalar.
    var name: String {
        guard isScalar else { return "" }
        let b = UnsafeBufferPointer(rebasing: bytes)
        return KnownKeys.string(b) ?? String(decoding: b, as: UTF8.self)
    }

    var scalarStyle: ScalarStyle? { isScalar ? event.style : nil }

    var isInvalid: Bool {
        if case .alias = event.kind { true } else { false }
    }

    var typeName: String {
        switch event.kind {
        case .scalar: event.style.isPlain && event.text.isEmpty ? "an empty value" : "a scalar"
        case .sequenceStart: "a list"
        case .mappingStart: "a mapping"
        case .alias, .sequenceEnd, .mappingEnd, .documentStart, .documentEnd, .streamEnd: "an invalid node"
        }
    }

    var plainInteger: Int? {
        guard isScalar, case .plain = event.style else { return nil }
        return YAMLNode.plainInteger(bytes)
    }

    /// The items of a list: each index is an item's first event.
    struct Items: Collection {
        let node: FlatNode
        let startIndex: Int
        let endIndex: Int
        func index(after i: Int) -> Int { FlatNode(events: node.events, text: node.text, index: i).end }
        subscript(i: Int) -> FlatNode { FlatNode(events: node.events, text: node.text, index: i) }
    }

    var sequence: Items? {
        if case .sequenceStart = event.kind { Items(node: self, startIndex: index + 1, endIndex: end - 1) } else { nil }
    }

    /// The entries of a mapping, key then value, in order.
    struct Entries: Sequence, IteratorProtocol {
        let node: FlatNode
        var position: Int

        mutating func next() -> DocumentEntry<FlatNode>? {
            if case .mappingEnd = node.events[position].kind { return nil }
            let key = FlatNode(events: node.events, text: node.text, index: position)
            let value = FlatNode(events: node.events, text: node.text, index: key.end)
            position = value.end
            return DocumentEntry(key: key, value: value, name: key.name)
        }
    }

    var entries: Entries? {
        if case .mappingStart = event.kind { Entries(node: self, position: index + 1) } else { nil }
    }

    /// True when every mapping in the node has at most `maxKeys` keys, all ASCII scalars, each
    /// once: then building the tree would report nothing (`YAMLDocument.readNode` reports the
    /// others), so the node decodes the same from here as from its tree. Anything else goes
    /// through the tree: a big mapping, where the tree's check stays linear and this one would
    /// not; a non-ASCII key, which the tree compares as a `String` (canonical equivalence).
    var keysAreDistinctScalars: Bool {
        var i = index
        let stop = end
        while i < stop {
            if case .mappingStart = events[i].kind {
                var k = i + 1, count = 0
                while true {
                    if case .mappingEnd = events[k].kind { break }
                    guard case .scalar = events[k].kind else { return false }
                    count += 1
                    let name = text[events[k].text]
                    guard count <= Self.maxKeys, name.allSatisfy({ $0 < 0x80 }) else { return false }
                    // Earlier keys of this mapping, walked again: items have two or three keys,
                    // and a list of names would cost an allocation per item.
                    var earlier = i + 1
                    while earlier < k {
                        if text[events[earlier].text].elementsEqual(name) { return false }
                        earlier = after(after(earlier))
                    }
                    k = after(after(k))
                }
            }
            i += 1
        }
        return true
    }

    /// The most keys a mapping decoded in place may have (a move has at most three).
    static let maxKeys = 16

    /// One past the end of the node that starts at event `i`.
    private func after(_ i: Int) -> Int { FlatNode(events: events, text: text, index: i).end }

    /// The node as a tree, to echo an item that is not a valid move.
    var tree: YAMLNode {
        switch event.kind {
        case .scalar: return YAMLNode(.scalar(String(decoding: bytes, as: UTF8.self), event.style), span: span)
        case .sequenceStart: return YAMLNode(.sequence(sequence.map { $0.map(\.tree) } ?? []), span: span)
        case .mappingStart:
            let entries = entries.map { $0.map { YAMLEntry(key: $0.key.tree, value: $0.value.tree) } } ?? []
            return YAMLNode(.mapping(entries), span: span)
        case .alias, .sequenceEnd, .mappingEnd, .documentStart, .documentEnd, .streamEnd: return YAMLNode(.invalid, span: span)
        }
    }
}

extension YAMLFlatNode {
    /// Whether the node starting at event `start` decodes in place: building its tree would
    /// report nothing (no repeated or non-scalar key; see ``FlatNode/keysAreDistinctScalars``).
    func keysAreDistinctScalars(at start: Int) -> Bool {
        events.withUnsafeBufferPointer { e in
            text.withUnsafeBufferPointer { t in FlatNode(events: e, text: t, index: start).keysAreDistinctScalars }
        }
    }

    /// The node starting at event `start` decoded in place by `MovesFile.item`.
    /// (Not generic over the result: a generic `withRoot` copied every item through value
    /// witnesses.)
    func decodedMoveItem(at start: Int) -> MoveItem {
        events.withUnsafeBufferPointer { e in
            text.withUnsafeBufferPointer { t in MovesFile.item(FlatNode(events: e, text: t, index: start)) }
        }
    }
}

/// Items of a moves file as read: most as flat events back to back in one buffer, to be decoded
/// in place when taken; those that went through a tree (an error, an unusual key) decoded.
/// `check --moves` reads batches on one thread and decodes and decides them on another.
package struct MovesBatch: Sendable {
    package enum Entry: Sendable {
        /// An item whose events start at this index of ``MovesBatch/flat``.
        case flat(Int)
        /// An item decoded already.
        case item(MoveItem)
    }

    /// The flat items' events and bytes.
    package var flat = YAMLFlatNode()
    /// The items in file order.
    package var entries: [Entry] = []

    package init() {}

    package var isEmpty: Bool { entries.isEmpty }

    /// Calls `body` with each item, in order, then empties the batch (keeping its buffers).
    package mutating func forEach(_ body: (MoveItem) -> Void) {
        for entry in entries {
            switch entry {
            case .flat(let start): body(flat.decodedMoveItem(at: start))
            case .item(let item): body(item)
            }
        }
        removeAll()
    }

    /// Empties the batch, keeping its buffers for the next one.
    package mutating func removeAll() {
        flat.removeAll()
        entries.removeAll(keepingCapacity: true)
    }
}
