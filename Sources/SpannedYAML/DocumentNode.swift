/// What a decoder reads: a node of a YAML tree (``YAMLNode``, every file) or of a JSON body
/// read in place (``JSONNode``, every request). The table and moves decoders are written once
/// against this protocol, so a table means the same in a file and in a request, and a request
/// is decoded straight from its bytes with no tree in between.
public protocol DocumentNode {
    /// A sequence's items.
    associatedtype Items: Collection where Items.Element == Self
    /// A mapping's entries, walked in order without building an array.
    associatedtype Entries: Sequence where Entries.Element == DocumentEntry<Self>

    /// Where the node is.
    var span: Span { get }
    /// The scalar's text, if the node is a scalar.
    var scalar: String? { get }
    /// The scalar's style, if the node is a scalar.
    var scalarStyle: ScalarStyle? { get }
    /// The items, if the node is a sequence.
    var sequence: Items? { get }
    /// The entries in order, if the node is a mapping.
    var entries: Entries? { get }
    /// True for a node already reported as an error.
    var isInvalid: Bool { get }
    /// A word for the node's type, for "expected X, found Y" messages.
    var typeName: String { get }
    /// A plain scalar of the form `-?[0-9]+` that fits an `Int` (SPEC §4), else nil.
    var plainInteger: Int? { get }
    /// The node as a ``YAMLNode`` tree (to echo it back, as an invalid moves item is).
    var tree: YAMLNode { get }
}

/// One key/value entry of a mapping, for any ``DocumentNode``.
public struct DocumentEntry<Node: DocumentNode> {
    /// The key node (a scalar).
    public var key: Node
    /// The value node.
    public var value: Node
    /// The key's text.
    public var name: String

    /// Creates an entry. Inlinable, so a decoder in another module makes entries of its own
    /// node type without generic metadata (a moves file makes two per move).
    @inlinable
    public init(key: Node, value: Node, name: String) {
        self.key = key
        self.value = value
        self.name = name
    }
}

extension YAMLNode: DocumentNode {
    public var entries: LazyMapSequence<[YAMLEntry], DocumentEntry<YAMLNode>>? {
        mapping?.lazy.map { DocumentEntry(key: $0.key, value: $0.value, name: $0.name) }
    }

    public var plainInteger: Int? {
        guard case .scalar(let text, .plain) = content else { return nil }
        return Self.plainInteger(text.utf8)
    }

    public var tree: YAMLNode { self }

    /// `-?[0-9]+` that fits an `Int`, without overflow; nil for anything else. Inlinable, so
    /// it is specialized for the bytes each caller has (a slice of a moves file's buffer, say).
    @inlinable
    public static func plainInteger<Bytes: Collection<UInt8>>(_ utf8: Bytes) -> Int? {
        guard let first = utf8.first else { return nil }
        let negative = first == UInt8(ascii: "-")
        let digits = negative ? utf8.dropFirst() : utf8[...]
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 48 && byte <= 57 else { return nil }
            let d = Int(byte - 48)
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = negative ? m.subtractingReportingOverflow(d) : m.addingReportingOverflow(d)
            guard !o1 && !o2 else { return nil }
            value = a
        }
        return value
    }
}
