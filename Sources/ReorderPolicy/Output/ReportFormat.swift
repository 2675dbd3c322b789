/// What an output format needs besides its report.
public struct RenderContext: Sendable {
    /// Colours and styles (plain unless writing to a terminal).
    public var style: TerminalStyle
    /// The tool's version, for formats that name the tool (SARIF).
    public var toolVersion: String

    /// Creates a context.
    public init(style: TerminalStyle = .plain, toolVersion: String = "") {
        self.style = style
        self.toolVersion = toolVersion
    }
}

/// One output format of a report (`lint`'s, `test`'s). A new format is one type conforming to
/// this, in one file, and one entry in its report's `formats`: the CLI's `--format`, the
/// configuration's `format.<command>` and its schema all read that list.
public protocol ReportFormat<Report>: Sendable {
    /// The report it renders.
    associatedtype Report
    /// The name `--format` takes.
    var name: String { get }
    /// The whole output.
    func render(_ report: Report, _ context: RenderContext) -> String
    /// Whether the output is one JSON document, which a run that fails on its inputs still
    /// writes (a machine reading standard output gets a complete document either way).
    var isJSONDocument: Bool { get }
}

extension ReportFormat {
    /// Most formats are not (text, annotations, Markdown).
    public var isJSONDocument: Bool { false }
}

/// A report with output formats: its `formats` is the registry the CLI's `--format`, the
/// configuration's `format.<command>` and the configuration schema read.
public protocol FormattedReport {
    /// The output formats, the first the default.
    static var formats: [any ReportFormat<Self>] { get }
}

extension FormattedReport {
    /// The format named `name`.
    public static func format(named name: String) -> (any ReportFormat<Self>)? { formats.first { $0.name == name } }
}

extension LintReport: FormattedReport {
    public static let formats: [any ReportFormat<LintReport>] = [LintTextFormat(), LintJSONFormat(), LintSARIFFormat(), LintGitHubFormat()]
}

extension TestReport: FormattedReport {
    public static let formats: [any ReportFormat<TestReport>] = [TestTextFormat(), TestJSONFormat(), TestJUnitFormat()]
}
