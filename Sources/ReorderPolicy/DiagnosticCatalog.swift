import SpannedYAML
/// One line about each stable code, for SARIF rule lists and the docs.
public enum DiagnosticCatalog {
    /// Every code this tool can report, with its summary.
    public static let entries: [(DiagnosticCode, String)] = [
        (.yamlSyntax, "The file is not valid YAML (or not valid UTF-8)."),
        (.yamlAlias, "YAML anchors and aliases are not allowed."),
        (.yamlTag, "YAML tags are not allowed."),
        (.yamlMultiDocument, "A file holds exactly one YAML document."),
        (.yamlEmpty, "The file or document is empty."),
        (.duplicateKey, "A mapping has the same key twice."),
        (.tooDeep, "Nesting is deeper than 64 levels."),
        (.tooLarge, "The file is larger than 8 MiB."),
        (.unknownKey, "A key that this place does not know."),
        (.missingKey, "A required key is missing."),
        (.typeMismatch, "A value has the wrong type."),
        (.invalidValue, "A value has the right type but is not allowed."),
        (.unsupportedVersion, "The policy's language version is not 1."),
        (.ruleKind, "A rule item has no rule kind or several."),
        (.duplicateRuleID, "Two rules have the same id."),
        (.selectorConflict, "A selector combines first, last or index."),
        (.unreadable, "A path that cannot be read."),
        (.duplicatePolicyName, "Two policies served by one decision server have the same name."),
    ]

    /// The summary of `code`.
    public static func summary(_ code: DiagnosticCode) -> String {
        entries.first { $0.0 == code }?.1 ?? "A finding about a policy."
    }
}
