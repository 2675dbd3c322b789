import SpannedYAML
/// One line about each stable code, for SARIF rule lists and the docs.
public enum DiagnosticCatalog {
    /// Every code this tool can report, with its summary.
    public static var entries: [(DiagnosticCode, String)] { catalog.map { ($0.code, $0.summary) } }

    /// One code: a one-line summary and what to do about it.
    struct Entry {
        let code: DiagnosticCode
        let summary: String
        let help: String
    }

    static let catalog: [Entry] = [
        Entry(code: .yamlSyntax, summary: "The file is not valid YAML (or not valid UTF-8).",
              help: "Fix the YAML at the position shown: an unclosed bracket or quote, a bad indentation, or a byte that is not UTF-8."),
        Entry(code: .yamlAlias, summary: "YAML anchors and aliases are not allowed.",
              help: "Write the value out again instead of `&anchor` / `*alias`: policies stay readable line by line, and no alias can expand."),
        Entry(code: .yamlTag, summary: "YAML tags are not allowed.",
              help: "Remove the tag (`!x`, also `!!str`): values are read as written."),
        Entry(code: .yamlMultiDocument, summary: "A file holds exactly one YAML document.",
              help: "Split the file at `---`: one policy, table or moves list per file."),
        Entry(code: .yamlEmpty, summary: "The file or document is empty.",
              help: "Write the document, or remove the file."),
        Entry(code: .duplicateKey, summary: "A mapping has the same key twice.",
              help: "Keep one of the two keys; YAML mappings cannot repeat a key."),
        Entry(code: .tooDeep, summary: "Nesting is deeper than 64 levels.",
              help: "Flatten the structure; no policy needs that much nesting."),
        Entry(code: .tooLarge, summary: "The file is larger than 8 MiB.",
              help: "Split the policy or table; moves files have no size limit (they are streamed)."),
        Entry(code: .unknownKey, summary: "A key that this place does not know.",
              help: "Check the spelling (the message names the closest known key) and where the key stands."),
        Entry(code: .missingKey, summary: "A required key is missing.",
              help: "Add the key the message names."),
        Entry(code: .typeMismatch, summary: "A value has the wrong type.",
              help: "Write a value of the type the message expects: a plain integer (not quoted), a string, a list or a mapping."),
        Entry(code: .invalidValue, summary: "A value has the right type but is not allowed.",
              help: "Use a value from the range or the list the message gives."),
        Entry(code: .unsupportedVersion, summary: "The policy's language version is not 1.",
              help: "Write `reorder-policy: 1`."),
        Entry(code: .ruleKind, summary: "A rule item has no rule kind or several.",
              help: "Give each rule item exactly one rule kind (`pin`, `lock`, `capacity`, ...); split an item with two."),
        Entry(code: .duplicateRuleID, summary: "Two rules have the same id.",
              help: "Give each rule a unique id; unnamed rules are called rule-N and section-rule-N."),
        Entry(code: .selectorConflict, summary: "A selector combines first, last or index.",
              help: "Use at most one of `first`, `last` and `index` in one mapping; a list of selectors selects both."),
        Entry(code: .unreadable, summary: "A path that cannot be read.",
              help: "Check the path and its permissions; only regular files are read."),
        Entry(code: .duplicatePolicyName, summary: "Two policies served by one decision server have the same name.",
              help: "Rename one policy: the server addresses policies by name."),
        Entry(code: .lockDisplaced, summary: "Rows held by a lock can be shifted by moves around them.",
              help: "`lock` only stops a row from being picked up; use `pin` to keep it in place."),
        Entry(code: .deadRule, summary: "A rule that another rule makes redundant on every table (proved from the two rules).",
              help: "It repeats another rule, or another rule already holds the same rows more strongly; remove one of the two."),
        Entry(code: .neverSelects, summary: "A selector that selects nothing on any table (an empty list, first: 0, not: all), or an accept that admits no entering row.",
              help: "Check the selector: an empty list selects nothing, and an accept's rows or from must name other sections than the ones it guards."),
        Entry(code: .closedSection, summary: "A section takes no row from elsewhere although a capacity max expects some.",
              help: "Widen the accept's `from` or `rows` if the section should take rows; otherwise drop the capacity."),
        Entry(code: .capacityConflict, summary: "A capacity rule has min above max.",
              help: "Lower `min` or raise `max`: no section can satisfy both."),
        Entry(code: .conflictingAnchors, summary: "Two rules pin the same row to opposite ends.",
              help: "A row held at its index and at its distance from the end fixes its section's size; give both rules one anchor."),
        Entry(code: .stuckRow, summary: "A row that no rule holds, yet can never change place within its section: alone between two pins.",
              help: "If that is intended, say so with `lock` or `pin`; otherwise move the pins apart or loosen the rule the warning names."),
        Entry(code: .analysisBudget, summary: "The analysis ran out of its time budget before trying every table up to the bound.",
              help: "Raise --analysis-budget (or analysis.budget in .reorder-policy.yml), or lower --analysis-bound; warnings that were made hold as stated."),
        Entry(code: .unusedWaiver, summary: "A waiver comment (# reorder-policy: allow CODE) that matches no finding of its rule.",
              help: "Remove the waiver, or name the code of a warning the rule on that line has."),
    ]

    /// The summary of `code`.
    public static func summary(_ code: DiagnosticCode) -> String {
        catalog.first { $0.code == code }?.summary ?? "A finding about a policy."
    }

    /// What to do about `code`, in a sentence or two.
    public static func help(_ code: DiagnosticCode) -> String {
        catalog.first { $0.code == code }?.help ?? "See docs/LANGUAGE.md, \"Diagnostic codes\"."
    }
}
