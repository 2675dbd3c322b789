import SpannedYAML

/// Answers the playground's requests (docs/PLAYGROUND.md): a policy's *text*, a table and a
/// move in, the policy's `lint` diagnostics and the `explain` result out. Pure, like
/// ``DecisionService``: the server only moves bytes. Every step is the one the CLI takes —
/// ``PolicyLoader`` with SPEC §4's limits, ``Linter/lint(_:strict:config:analysis:)`` with the
/// analysis under its CPU budget, `DecisionJSON.explainDocument`.
public enum PlaygroundService {
    /// The file name diagnostics and rule locations carry for the playground's policy text.
    public static let policyFile = "playground.yaml"

    /// `POST /v1/playground`: body `{ "policy": "<YAML text>", "table": <table>, "move": <one
    /// moves item>, "analysis": true }`; `move` may be left out (lint only), and `"analysis":
    /// false` skips lint's analysis (the page does so at drag start and drop, where only the
    /// decision is wanted and the analysis' CPU time would be felt). Answers 200 with
    /// `{ "lint": <lint --format json>, "explain": <explain --format json> | null }`: a policy
    /// with errors has its diagnostics and `"explain": null` (it is a playground, the errors
    /// are the answer). A body, table or move of the wrong shape is a §9 400, as for `explain`.
    /// `analysis` runs `lint`'s analysis on a policy without errors (nil skips it).
    public static func answer(body: [UInt8], analysis: ((PolicyDocument) -> [Diagnostic])?) -> DecisionService.Reply {
        DecisionService.withFields(body, required: ["policy", "table"], optional: ["move", "analysis"]) { fields throws(DecisionService.RequestError) in
            try answer(fields, analysis: analysis)
        }
    }

    private static func answer(
        _ fields: [String: JSONNode], analysis: ((PolicyDocument) -> [Diagnostic])?
    ) throws(DecisionService.RequestError) -> DecisionService.Reply {
        let table = try DecisionService.decodeTable(fields["table"]!)  // required: withFields checked it
        let move = try fields["move"].map { node throws(DecisionService.RequestError) in try DecisionService.explainMove(node) }
        // `policy` is required: withFields checked it.
        guard let text = fields["policy"]!.scalar, fields["policy"]!.scalarStyle == .doubleQuoted else {
            throw DecisionService.RequestError(message: "'policy' must be the policy's YAML text as a JSON string, found \(fields["policy"]!.typeName)")
        }
        var analyse = true
        if let flag = fields["analysis"] {
            guard flag.scalarStyle == .plain, let word = flag.scalar, word == "true" || word == "false" else {
                throw DecisionService.RequestError(message: "'analysis' must be true or false, found \(flag.typeName)")
            }
            analyse = word == "true"
        }
        let document = Linter.lint(PolicyLoader.load(text: text, path: policyFile), analysis: analyse ? analysis : nil)
        var w = JSONWriter()
        w.raw("{\"lint\": ")
        var lint = DiagnosticRenderer.lintJSON(LintReport(documents: [document], unreadable: []))
        while lint.last == "\n" { lint.removeLast() }
        w.bytes(lint)
        w.raw(", \"explain\": ")
        var summary = DecisionJSON.Summary()
        if let move, let compiled = document.compiled() {
            w.append(DecisionJSON.explainDocument(compiled.bind(table), move, summary: &summary))
        } else {
            w.raw("null")
        }
        w.raw("}\n")
        return .decided(w.bytes, summary: summary)
    }

    /// A table as the JSON a request takes (SPEC §3): what the playground draws and sends back.
    /// Rows with neither kind nor tags are written as their id alone.
    public static func tableJSON(_ table: Table) -> String {
        var w = JSONWriter()
        TableText.json(table, into: &w)
        return w.text
    }
}
