import SpannedYAML

extension DecisionJSON {
    /// The JSON document of `explain --format json` for one move; `event` receives the
    /// decision's log record (with an empty policy hash).
    package static func explainDocument(
        _ bound: BoundPolicy, _ move: Move, summary: inout Summary, event: (DecisionEvent) -> Void = { _ in }
    ) -> JSONWriter {
        var w = JSONWriter()
        let name = bound.compiled.policy.name
        open(policy: name, into: &w)
        separator(0, into: &w)
        do {
            let explanation = try bound.explain(move)
            summary.add(explanation.decision.kind)
            event(DecisionEvent(policy: name, policyHash: "", decision: explanation.decision))
            resultFields(explanation.decision, into: &w)
            explanationFields(explanation, into: &w)
            w.raw("}")
        } catch {
            summary.invalid += 1
            event(DecisionEvent(policy: name, policyHash: "", invalid: move, error: error.message))
            invalid(given: { DecisionJSON.move(move, into: &$0) }, error: error.message, into: &w)
        }
        close(summary, empty: false, into: &w)
        return w
    }
}
