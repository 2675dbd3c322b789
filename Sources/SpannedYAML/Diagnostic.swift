/// A stable diagnostic code such as `unknown-key`; codes never change once published.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The code as printed, e.g. `yaml-alias`.
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    // YAML handling (SPEC §4).
    public static let yamlSyntax: Self = "yaml-syntax"
    public static let yamlAlias: Self = "yaml-alias"
    public static let yamlTag: Self = "yaml-tag"
    public static let yamlMultiDocument: Self = "yaml-multi-document"
    public static let yamlEmpty: Self = "yaml-empty"
    public static let duplicateKey: Self = "duplicate-key"
    public static let tooDeep: Self = "too-deep"
    public static let tooLarge: Self = "too-large"
    // Decoding (SPEC §4).
    public static let unknownKey: Self = "unknown-key"
    public static let missingKey: Self = "missing-key"
    public static let typeMismatch: Self = "type-mismatch"
    public static let invalidValue: Self = "invalid-value"
    public static let unsupportedVersion: Self = "unsupported-version"
    public static let ruleKind: Self = "rule-kind"
    public static let duplicateRuleID: Self = "duplicate-rule-id"
    public static let selectorConflict: Self = "selector-conflict"
    /// A path that cannot be read (not a SPEC §4 code; exit status 2).
    public static let unreadable: Self = "unreadable"
    /// Two policy files served by one decision server share a `name`.
    public static let duplicatePolicyName: Self = "duplicate-policy-name"
}

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Comparable {
    case error
    case warning

    public static func < (a: Self, b: Self) -> Bool { a == .error && b == .warning }
}

/// Evidence a diagnostic carries as a value: lint's analysis attaches a counterexample (a
/// table, a move, the decision and the rules it names; `ReorderPolicy.Counterexample`). The
/// module that finds it defines it; each output format renders it: text and GitHub
/// annotations as ``lines``, JSON and SARIF as ``json``.
public protocol DiagnosticEvidence: Sendable {
    /// Lines for people, shown after the diagnostic's notes.
    var lines: [String] { get }
    /// The evidence as one JSON value (written as is into `--format json` and SARIF).
    var json: String { get }
}

/// A finding about an input file: a value, never printed by the library itself.
///
/// Messages follow one style: lower-case, one line, user input quoted with `'`,
/// detail in ``help``.
public struct Diagnostic: Sendable, Hashable {
    // Hashable by hand: the evidence is an existential, compared by its JSON form.
    public static func == (a: Diagnostic, b: Diagnostic) -> Bool {
        a.severity == b.severity && a.code == b.code && a.message == b.message && a.file == b.file
            && a.span == b.span && a.help == b.help && a.notes == b.notes && a.counterexample?.json == b.counterexample?.json
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(file)
        hasher.combine(span)
        hasher.combine(message)
        hasher.combine(counterexample?.json)
    }

    /// Error or warning.
    public var severity: Severity
    /// The stable code.
    public var code: DiagnosticCode
    /// One line saying what is wrong and what was expected.
    public var message: String
    /// The file as the user named it.
    public var file: String
    /// Where in the file.
    public var span: Span
    /// A suggestion, e.g. "did you mean 'pin'?".
    public var help: String?
    /// Further lines of context.
    public var notes: [String]
    /// Evidence as a value (for lint's analysis, the counterexample of SPEC §10), rendered
    /// by each output format: as lines under the notes, as JSON (`counterexample`) and in
    /// SARIF (a result property).
    public var counterexample: (any DiagnosticEvidence)?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity = .error, code: DiagnosticCode, message: String, file: String,
        span: Span, help: String? = nil, notes: [String] = [], counterexample: (any DiagnosticEvidence)? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.file = file
        self.span = span
        self.help = help
        self.notes = notes
        self.counterexample = counterexample
    }

    /// Orders diagnostics by file, position, then code, so output is stable.
    public static func sorted(_ list: [Diagnostic]) -> [Diagnostic] {
        list.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.file != y.file { return x.file < y.file }
            if x.span.start != y.span.start { return x.span.start < y.span.start }
            return a.offset < b.offset
        }.map(\.element)
    }
}
