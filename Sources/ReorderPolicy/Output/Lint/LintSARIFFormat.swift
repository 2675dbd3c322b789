import SpannedYAML

/// `lint --format sarif`: SARIF 2.1.0 for code scanning.
public struct LintSARIFFormat: ReportFormat {
    public let name = "sarif"
    public let isJSONDocument = true
    public init() {}

    /// SARIF 2.1.0: one run, every code used listed as a rule, results with physical locations.
    /// (`lint --sarif-output` writes this too.)
    public func render(_ report: LintReport, _ context: RenderContext) -> String {
        let toolVersion = context.toolVersion
        // Suppressed findings are results too, marked as suppressed in source (SARIF §3.35):
        // code scanning shows them as dismissed, with the waiver's reason.
        let results = report.diagnostics.map { ($0, nil as String?) } + report.suppressed.map { ($0.diagnostic, $0.justification as String?) }
        let codes = Array(Set(results.map(\.0.code))).sorted()
        let fingerprints = Self.fingerprints(report, results.map(\.0))
        var w = JSONWriter()
        w.raw("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n")
        w.raw("      \"tool\": { \"driver\": { \"name\": \"reorder-policy\", \"version\": ")
        w.string(toolVersion)
        w.raw(", \"rules\": [")
        for (n, code) in codes.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"id\": ")
            w.string(code.rawValue)
            w.raw(", \"name\": ")
            w.string(code.rawValue)
            w.raw(", \"shortDescription\": { \"text\": ")
            w.string(DiagnosticCatalog.summary(code))
            w.raw(" }, \"fullDescription\": { \"text\": ")
            w.string(DiagnosticCatalog.summary(code) + " " + DiagnosticCatalog.help(code))
            w.raw(" }, \"help\": { \"text\": ")
            w.string(DiagnosticCatalog.help(code))
            w.raw(" }, \"defaultConfiguration\": { \"level\": ")
            w.string(results.first { $0.0.code == code }?.0.severity == .warning ? "warning" : "error")
            w.raw(" } }")
        }
        w.raw(codes.isEmpty ? "] } },\n" : "\n      ] } },\n")
        w.raw("      \"results\": [")
        for (n, (d, justification)) in results.enumerated() {
            w.raw(n == 0 ? "\n        " : ",\n        ")
            w.raw("{ \"ruleId\": ")
            w.string(d.code.rawValue)
            w.raw(", \"ruleIndex\": ")
            w.int(codes.firstIndex(of: d.code)!)  // `codes` is every code of `results`
            w.raw(", \"level\": ")
            w.string(d.severity == .error ? "error" : "warning")
            w.raw(", \"message\": { \"text\": ")
            w.string(d.help.map { "\(d.message)\nhelp: \($0)" } ?? d.message)
            w.raw(" }, \"partialFingerprints\": { \"reorderPolicyFinding/v1\": ")
            w.string(fingerprints[n])
            w.raw(" }, \"locations\": [ { \"physicalLocation\": { \"artifactLocation\": { \"uri\": ")
            w.string(Self.uriReference(d.file))
            w.raw(" }, \"region\": { \"startLine\": ")
            w.int(d.span.start.line)
            w.raw(", \"startColumn\": ")
            w.int(d.span.start.column)
            if d.span.end > d.span.start {
                w.raw(", \"endLine\": ")
                w.int(d.span.end.line)
                w.raw(", \"endColumn\": ")
                w.int(d.span.end.column)
            }
            w.raw(" } } } ]")
            if let justification {
                w.raw(", \"suppressions\": [ { \"kind\": \"inSource\", \"justification\": ")
                w.string(justification)
                w.raw(" } ]")
            }
            if d.counterexample != nil || d.claim != nil {
                // A property bag (SARIF §3.8): the table, move and decision that show the
                // finding, and what it claims (SPEC §10.1).
                w.raw(", \"properties\": { ")
                if let counterexample = d.counterexample {
                    w.raw("\"counterexample\": ")
                    w.bytes(counterexample.json)
                }
                if let claim = d.claim {
                    w.raw(d.counterexample == nil ? "\"claim\": " : ", \"claim\": ")
                    w.bytes(claim.json)
                }
                w.raw(" }")
            }
            w.raw(" }")
        }
        w.raw(results.isEmpty ? "]\n" : "\n      ]\n")
        w.raw("    }\n  ]\n}\n")
        return w.text
    }

    /// A path as a SARIF `uri-reference` (RFC 3986): UTF-8 bytes outside the unreserved set and
    /// `/` are percent-encoded, so spaces, `%` and non-ASCII names survive the round trip.
    static func uriReference(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// Each finding's identity across commits (GitHub code scanning tracks alerts by it): the
    /// code, the file, the message and the text of the line it points at — not the line
    /// number, so a finding keeps its fingerprint when lines are added above it. Findings that
    /// share all of these are told apart by their order among them. One pass, a line index per file.
    static func fingerprints(_ report: LintReport, _ diagnostics: [Diagnostic]) -> [String] {
        var lines: [String: SourceLines] = [:]
        for document in report.documents { lines[document.source.path] = SourceLines(document.source) }
        var seen: [String: Int] = [:]
        return diagnostics.map { d in
            let text = lines[d.file]?.line(d.span.start.line) ?? ""
            var scalars = Array(text.unicodeScalars)
            while let last = scalars.last, last == " " || last == "\t" || last == "\r" { scalars.removeLast() }
            var trimmed = String.UnicodeScalarView()
            trimmed.append(contentsOf: scalars.drop { $0 == " " || $0 == "\t" })
            let key = "\(d.code.rawValue)\u{0}\(d.file)\u{0}\(trimmed)\u{0}\(d.message)"
            let n = (seen[key] ?? 0) + 1
            seen[key] = n
            return String(DecisionEvent.hash(Array(key.utf8)).dropFirst("fnv1a64:".count)) + ":\(n)"
        }
    }
}
