/// How a scalar was written; the style decides meaning in a few places
/// (a plain `2` is a section index, a quoted `"2"` a section id).
public enum ScalarStyle: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded

    /// True unless the scalar was quoted or a block scalar.
    public var isPlain: Bool { self == .plain }
}

/// A YAML node with its span. Scalars keep their text exactly as written.
public struct YAMLNode: Sendable, Hashable {
    /// The node's content.
    public enum Content: Sendable, Hashable {
        /// A scalar's text and style.
        case scalar(String, ScalarStyle)
        /// A sequence's items.
        case sequence([YAMLNode])
        /// A mapping's entries in file order; keys are scalars.
        case mapping([YAMLEntry])
        /// A node already reported as an error (an alias, say); decoders skip it silently.
        case invalid
    }

    /// What the node holds.
    public var content: Content
    /// Where it is.
    public var span: Span

    /// Creates a node.
    public init(_ content: Content, span: Span) {
        self.content = content
        self.span = span
    }

    /// The scalar's text, if the node is a scalar.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// The scalar's style, if the node is a scalar.
    public var scalarStyle: ScalarStyle? {
        if case .scalar(_, let style) = content { return style }
        return nil
    }

    /// The items, if the node is a sequence.
    public var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The entries, if the node is a mapping.
    public var mapping: [YAMLEntry]? {
        if case .mapping(let entries) = content { return entries }
        return nil
    }

    /// True for a node already reported as an error.
    public var isInvalid: Bool {
        if case .invalid = content { return true }
        return false
    }

    /// A word for the node's type, for "expected X, found Y" messages.
    public var typeName: String {
        switch content {
        case .scalar(let text, let style):
            if style.isPlain && text.isEmpty { return "an empty value" }
            return "a scalar"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .invalid: return "an invalid node"
        }
    }
}

/// One key/value entry of a mapping.
public struct YAMLEntry: Sendable, Hashable {
    /// The key node (a scalar; other keys are reported and dropped).
    public var key: YAMLNode
    /// The value node.
    public var value: YAMLNode

    /// The key's text.
    public var name: String { key.scalar ?? "" }

    /// Creates an entry.
    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}
