/// A reason in plain words, kept as parts (text, row ids, positions, sections) so output
/// can render it straight into bytes without building a string per decision.
public struct Reason: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One piece of a reason.
    public enum Part: Hashable, Sendable {
        /// Literal text.
        case text(String)
        /// A row id, shown in double quotes: `"Blue"`.
        case quoted(String)
        /// A position, shown `s.r`.
        case position(Position)
        /// A number.
        case number(Int)
        /// A section, shown `section 1 ("Doing")` or `section 1`.
        case section(Int, id: String?)
    }

    /// The parts in order.
    public var parts: [Part]

    /// Creates a reason from parts.
    public init(_ parts: [Part]) { self.parts = parts }

    /// A reason that is plain text.
    public init(stringLiteral value: String) { parts = [.text(value)] }

    /// The reason as text.
    public var description: String {
        var out = ""
        for part in parts {
            switch part {
            case .text(let t): out += t
            case .quoted(let id): out += "\"\(id)\""
            case .position(let p): out += p.description
            case .number(let n): out += String(n)
            case .section(let u, let id):
                out += "section \(u)"
                if let id { out += " (\"\(id)\")" }
            }
        }
        return out
    }

    /// Joins reasons with `; `.
    static func joined(_ reasons: [Reason]) -> Reason {
        var parts: [Part] = []
        for (n, r) in reasons.enumerated() {
            if n > 0 { parts.append(.text("; ")) }
            parts += r.parts
        }
        return Reason(parts)
    }
}

extension Reason: ExpressibleByStringInterpolation {
    /// Builds reasons from interpolations: positions, numbers, row ids and sections stay parts.
    public struct StringInterpolation: StringInterpolationProtocol {
        var parts: [Part] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            parts.reserveCapacity(4 * interpolationCount + 2)
        }

        public mutating func appendLiteral(_ literal: String) {
            if !literal.isEmpty { parts.append(.text(literal)) }
        }

        public mutating func appendInterpolation(_ part: Part) { parts.append(part) }
        public mutating func appendInterpolation(_ reason: Reason) { parts += reason.parts }
        public mutating func appendInterpolation(_ position: Position) { parts.append(.position(position)) }
        public mutating func appendInterpolation(_ number: Int) { parts.append(.number(number)) }
        public mutating func appendInterpolation(_ text: String) { parts.append(.text(text)) }
    }

    public init(stringInterpolation: StringInterpolation) { parts = stringInterpolation.parts }
}
