import ArgumentParser
import ReorderPolicy

/// A `--format` value of a command whose report has a registry of formats
/// (``FormattedReport``): the accepted names, the help and the completions come from it.
struct FormatChoice<Report: FormattedReport>: ExpressibleByArgument {
    let format: any ReportFormat<Report>

    init?(argument: String) {
        guard let format = Report.format(named: argument) else { return nil }
        self.format = format
    }

    /// The configured format (already validated with the configuration), else the first.
    init(configured name: String?) {
        format = name.flatMap(Report.format(named:)) ?? Report.formats[0]
    }

    static var allValueStrings: [String] { Report.formats.map(\.name) }

    /// `text, json, sarif or github`.
    static var names: String {
        let all = allValueStrings
        return all.dropLast().joined(separator: ", ") + (all.count > 1 ? " or " : "") + (all.last ?? "")
    }

    var defaultValueDescription: String { format.name }
}
