import SpannedYAML
import Foundation

/// A finding a policy author acknowledged with a waiver comment.
public struct SuppressedFinding: Sendable, Hashable {
    /// The finding, as it would have been reported.
    public var diagnostic: Diagnostic
    /// The waiver's reason (may be empty).
    public var justification: String
}

/// Waiver comments in policy files (docs/ANALYSIS.md, "Waivers"):
///
/// ```yaml
/// - lock: { kind: ad }   # reorder-policy: allow lock-displaced -- ads are re-placed by the server
/// # reorder-policy: allow dead-rule -- kept while the old app version is live
/// - lock: { first: 1 }
/// ```
///
/// A waiver on a rule's line, or on comment lines right above it, acknowledges the named
/// analysis warnings of that rule; they are reported as suppressed (JSON, SARIF) instead of
/// counted. Comments are not part of the policy language, so a waiver never changes what a
/// policy means, and only warnings can be waived: an error always stands.
enum Waivers {
    struct Waiver {
        /// Where the comment is.
        let span: Span
        /// The line of the rule item it applies to.
        let line: Int
        /// The codes as written (an unknown one matches nothing, and the waiver says so).
        let codes: [String]
        let reason: String
    }

    static let marker = "reorder-policy: allow"

    /// The waivers in `source`.
    static func find(in source: SourceFile) -> [Waiver] {
        let bytes = Array(source.bytes)
        // Cheap test first: most files have none.
        guard String(decoding: bytes, as: UTF8.self).contains(marker) else { return [] }
        let parsed = YAMLDocument.parse(bytes, file: source.path)
        let scalars = parsed.root.map { YAMLFormatter.scalarRanges(ByteOffsets(bytes).remap($0)) } ?? []
        let comments = Comments(bytes, scalars: scalars).items
        // Lines holding only a comment or nothing: a waiver above a rule may stand on them.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        func isCommentOrBlank(_ line: Int) -> Bool {
            guard line >= 1 && line <= lines.count else { return false }
            let text = lines[line - 1].drop { $0 == " " || $0 == "\t" }
            return text.isEmpty || text.hasPrefix("#")
        }
        var out: [Waiver] = []
        for c in comments {
            var body = c.text.dropFirst().drop { $0 == " " }
            guard body.hasPrefix(marker) else { continue }
            body = body.dropFirst(marker.count)
            var reason = ""
            if let dash = body.range(of: "--") {
                reason = String(body[dash.upperBound...]).trimmingCharacters(in: .whitespaces)
                body = body[..<dash.lowerBound]
            }
            let codes = body.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            var line = c.line
            if !c.trailing {
                line += 1
                while isCommentOrBlank(line) && line <= lines.count { line += 1 }
            }
            let column = lines[c.line - 1].unicodeScalars.count - c.text.unicodeScalars.count + 1
            let start = Mark(line: c.line, column: Swift.max(1, column))
            out.append(Waiver(span: Span(start: start, end: Mark(line: c.line, column: start.column + c.text.unicodeScalars.count)),
                              line: line, codes: codes, reason: reason))
        }
        return out
    }

    /// Splits `diagnostics` into those kept and those a waiver suppresses; waivers that match
    /// nothing (or name an unknown code, or an error) become `unused-waiver` warnings when `judged`.
    static func apply(_ waivers: [Waiver], to diagnostics: [Diagnostic], file: String, judged: Bool)
        -> (kept: [Diagnostic], suppressed: [SuppressedFinding]) {
        guard !waivers.isEmpty else { return (diagnostics, []) }
        var kept: [Diagnostic] = [], suppressed: [SuppressedFinding] = []
        var used = Set<Int>()
        for d in diagnostics {
            let match = waivers.indices.first { w in
                d.severity == .warning && ProjectConfig.configurableCodes.contains(d.code)
                    && waivers[w].line == d.span.start.line && waivers[w].codes.contains(d.code.rawValue)
            }
            if let match {
                used.insert(match)
                suppressed.append(SuppressedFinding(diagnostic: d, justification: waivers[match].reason))
            } else {
                kept.append(d)
            }
        }
        if judged {
            for (w, waiver) in waivers.enumerated() where !used.contains(w) {
                let names = waiver.codes.joined(separator: ", ")
                kept.append(Diagnostic(.warning, code: .unusedWaiver,
                                       message: "the waiver for \(names.isEmpty ? "no code" : names) matches no finding of the rule on line \(waiver.line)",
                                       file: file, span: waiver.span,
                                       help: "remove it, or name the code of a warning that rule has"))
            }
        }
        return (Diagnostic.sorted(kept), suppressed)
    }
}
