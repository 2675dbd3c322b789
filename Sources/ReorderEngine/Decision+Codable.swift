// Decisions as SPEC §5.1 writes them, for services that answer with `JSONEncoder`:
// `{ "move": …, "decision": …, "target": …, "violations": [ { "rule", "kind", "message",
// "location", "reason" } ] }`, with `null` for a missing message or location, as `check` writes.

extension Decision: Codable {
    enum CodingKeys: String, CodingKey { case move, decision, target, violations }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(move, forKey: .move)
        try c.encode(kind.rawValue, forKey: .decision)
        try c.encode(target, forKey: .target)
        try c.encode(violations, forKey: .violations)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let word = try c.decode(String.self, forKey: .decision)
        guard let kind = DecisionKind(rawValue: word) else {
            throw DecodingError.dataCorruptedError(forKey: .decision, in: c, debugDescription: "unknown decision '\(word)'")
        }
        self.init(move: try c.decode(Move.self, forKey: .move), kind: kind,
                  target: try c.decode(Destination.self, forKey: .target), violations: try c.decode([Violation].self, forKey: .violations))
    }
}

extension Move: Codable {
    enum CodingKeys: String, CodingKey {
        case from, to
        case sectionFrom = "section-from"
        case sectionTo = "section-to"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .row(let from, let to):
            try c.encode(from, forKey: .from)
            try c.encode(to, forKey: .to)
        case .section(let from, let to):
            try c.encode(from, forKey: .sectionFrom)
            try c.encode(to, forKey: .sectionTo)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.from) {
            self = .row(from: try c.decode(Position.self, forKey: .from), to: try c.decode(Position.self, forKey: .to))
        } else {
            self = .section(from: try c.decode(Int.self, forKey: .sectionFrom), to: try c.decode(Int.self, forKey: .sectionTo))
        }
    }
}

extension Position: Codable {
    /// `[section, row]`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(section)
        try c.encode(row)
    }

    public init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        let section = try c.decode(Int.self), row = try c.decode(Int.self)
        guard c.isAtEnd else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a position is [section, row]"))
        }
        self.init(section: section, row: row)
    }
}

extension Destination: Codable {
    /// `[section, row]` for a row, an integer for a section.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .row(let p): try p.encode(to: encoder)
        case .section(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        }
    }

    public init(from decoder: any Decoder) throws {
        if let i = try? decoder.singleValueContainer().decode(Int.self) {
            self = .section(i)
        } else {
            self = .row(try Position(from: decoder))
        }
    }
}

extension SourceLocation: Codable {
    enum CodingKeys: String, CodingKey { case file, line, column }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(line, forKey: .line)
        try c.encode(column, forKey: .column)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(file: try c.decode(String.self, forKey: .file), line: try c.decode(Int.self, forKey: .line),
                  column: try c.decode(Int.self, forKey: .column))
    }
}

extension Violation: Codable {
    enum CodingKeys: String, CodingKey { case rule, kind, message, location, reason }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(rule, forKey: .rule)
        try c.encode(kind, forKey: .kind)
        try c.encode(message, forKey: .message)
        try c.encode(location, forKey: .location)
        try c.encode(reason, forKey: .reason)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(rule: try c.decode(String.self, forKey: .rule), kind: try c.decode(String.self, forKey: .kind),
                  message: try c.decodeIfPresent(String.self, forKey: .message),
                  location: try c.decodeIfPresent(SourceLocation.self, forKey: .location),
                  reason: Reason(try c.decode(String.self, forKey: .reason)))
    }
}
