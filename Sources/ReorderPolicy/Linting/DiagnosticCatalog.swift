import SpannedYAML
/// One line about each stable code, for SARIF rule lists and the docs.
public enum DiagnosticCatalog {
    /// Every code this tool can report, with its summary, in a fixed order.
    public static var entries: [(DiagnosticCode, String)] { DiagnosticCode.allCases.map { ($0, summary($0)) } }

    /// One code's one-line summary and what to do about it. A switch with no `default:`: a new
    /// code does not compile until it is described here.
    static func entry(_ code: DiagnosticCode) -> (summary: String, help: String) {
        switch code {
        case .yamlSyntax: ("The file is not valid YAML (or not valid UTF-8).",
                    "Fix the YAML at the position shown: an unclosed bracket or quote, a bad indentation, or a byte that is not UTF-8.")
        case .yamlAlias: ("YAML anchors and aliases are not allowed.",
                    "Write the value out again instead of `&anchor` / `*alias`: policies stay readable line by line, and no alias can expand.")
        case .yamlTag: ("YAML tags are not allowed.",
                    "Remove the tag (`!x`, also `!!str`): values are read as written.")
        case .yamlMultiDocument: ("A file holds exactly one YAML document.",
                    "Split the file at `---`: one policy, table or moves list per file.")
        case .yamlEmpty: ("The file or document is empty.",
                    "Write the document, or remove the file.")
        case .duplicateKey: ("A mapping has the same key twice.",
                    "Keep one of the two keys; YAML mappings cannot repeat a key.")
        case .tooDeep: ("Nesting is deeper than 64 levels.",
                    "Flatten the structure; no policy needs that much nesting.")
        case .tooLarge: ("The file is larger than 8 MiB.",
                    "Split the policy or table; moves files have no size limit (they are streamed).")
        case .unknownKey: ("A key that this place does not know.",
                    "Check the spelling (the message names the closest known key) and where the key stands.")
        case .missingKey: ("A required key is missing.",
                    "Add the key the message names.")
        case .typeMismatch: ("A value has the wrong type.",
                    "Write a value of the type the message expects: a plain integer (not quoted), a string, a list or a mapping.")
        case .invalidValue: ("A value has the right type but is not allowed.",
                    "Use a value from the range or the list the message gives.")
        case .unsupportedVersion: ("The policy's language version is not 1.",
                    "Write `reorder-policy: 1`.")
        case .ruleKind: ("A rule item has no rule kind or several.",
                    "Give each rule item exactly one rule kind (`pin`, `lock`, `capacity`, ...); split an item with two.")
        case .duplicateRuleID: ("Two rules have the same id.",
                    "Give each rule a unique id; unnamed rules are called rule-N and section-rule-N.")
        case .selectorConflict: ("A selector combines first, last or index.",
                    "Use at most one of `first`, `last` and `index` in one mapping; a list of selectors selects both.")
        case .unreadable: ("A path that cannot be read.",
                    "Check the path and its permissions; only regular files are read.")
        case .duplicatePolicyName: ("Two policies served by one decision server have the same name.",
                    "Rename one policy: the server addresses policies by name.")
        case .lockDisplaced: ("Rows held by a lock can be shifted by moves around them.",
                    "`lock` only stops a row from being picked up; use `pin` to keep it in place.")
        case .deadRule: ("A rule that another rule makes redundant on every table (proved from the two rules).",
                    "It repeats another rule, or another rule already holds the same rows more strongly; remove one of the two.")
        case .neverSelects: ("A selector that selects nothing on any table (an empty list, first: 0, not: all), or an accept that admits no entering row.",
                    "Check the selector: an empty list selects nothing, and an accept's rows or from must name other sections than the ones it guards.")
        case .closedSection: ("A section takes no row from elsewhere although a capacity max expects some.",
                    "Widen the accept's `from` or `rows` if the section should take rows; otherwise drop the capacity.")
        case .capacityConflict: ("A capacity rule has min above max.",
                    "Lower `min` or raise `max`: no section can satisfy both.")
        case .conflictingAnchors: ("Two rules pin the same row to opposite ends.",
                    "A row held at its index and at its distance from the end fixes its section's size; give both rules one anchor.")
        case .stuckRow: ("A row that no rule holds, yet can never change place within its section: alone between two pins.",
                    "If that is intended, say so with `lock` or `pin`; otherwise move the pins apart or loosen the rule the warning names.")
        case .analysisBudget: ("The analysis ran out of its time budget before trying every table up to the bound.",
                    "Raise --analysis-budget (or analysis.budget in .reorder-policy.yml), or lower --analysis-bound; warnings that were made hold as stated.")
        case .unusedWaiver: ("A waiver comment (# reorder-policy: allow CODE) that matches no finding of its rule.",
                    "Remove the waiver, or name the code of a warning the rule on that line has.")
        case .formatUnsafe: ("`fmt` could not lay the file out without changing what it says (its tree or its comments), so it left the file as it is.",
                    "The file is unchanged and still valid; lay out the part the message names by hand (docs/FORMAT.md, \"Never changing meaning\").")
        }
    }

    /// The summary of `code`.
    public static func summary(_ code: DiagnosticCode) -> String { entry(code).summary }

    /// What to do about `code`, in a sentence or two.
    public static func help(_ code: DiagnosticCode) -> String { entry(code).help }
}
