/// A stable diagnostic code such as `unknown-key`; codes never change once published.
///
/// A closed set: every code of every module is a case here, and `DiagnosticCatalog` switches
/// over them with no `default:`, so a code without a description does not compile.
public enum DiagnosticCode: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    // YAML handling (SPEC §4).
    case yamlSyntax = "yaml-syntax"
    case yamlAlias = "yaml-alias"
    case yamlTag = "yaml-tag"
    case yamlMultiDocument = "yaml-multi-document"
    case yamlEmpty = "yaml-empty"
    case duplicateKey = "duplicate-key"
    case tooDeep = "too-deep"
    case tooLarge = "too-large"
    // Decoding (SPEC §4).
    case unknownKey = "unknown-key"
    case missingKey = "missing-key"
    case typeMismatch = "type-mismatch"
    case invalidValue = "invalid-value"
    case unsupportedVersion = "unsupported-version"
    case ruleKind = "rule-kind"
    case duplicateRuleID = "duplicate-rule-id"
    case selectorConflict = "selector-conflict"
    /// A path that cannot be read (not a SPEC §4 code; exit status 2).
    case unreadable = "unreadable"
    /// Two policy files served by one decision server share a `name`.
    case duplicatePolicyName = "duplicate-policy-name"
    // Analysis warnings (`lint`, SPEC §10).
    /// A `lock` whose rows other moves can shift.
    case lockDisplaced = "lock-displaced"
    /// A rule that changes no decision on any table.
    case deadRule = "dead-rule"
    /// A selector that selects nothing on any table, or an accept that admits nothing.
    case neverSelects = "never-selects"
    /// A section that takes no row from elsewhere although a `capacity.max` expects some.
    case closedSection = "closed-section"
    /// `capacity` bounds no section can meet.
    case capacityConflict = "capacity-conflict"
    /// A row pinned to both ends by different rules.
    case conflictingAnchors = "conflicting-anchors"
    /// Rows that are not held but can never move anywhere.
    case stuckRow = "stuck-row"
    /// The analysis's enumeration ran out of its work budget.
    case analysisBudget = "analysis-budget"
    /// A waiver comment that matches no finding.
    case unusedWaiver = "unused-waiver"
    /// `fmt` could not lay the file out without changing what it says (it is left as it is).
    case formatUnsafe = "format-unsafe"

    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
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
            && a.claim?.json == b.claim?.json
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
    /// What an analysis finding states, as data (SPEC §10.1: `claim`), written into JSON and
    /// into SARIF's result properties so that no consumer parses the message.
    public var claim: (any DiagnosticEvidence)?

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

/// A reader that stops at its first problem (``JSONDocument``) reports it as a thrown value.
extension Diagnostic: Error {}
