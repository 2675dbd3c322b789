import SpannedYAML
import Foundation

/// A project's `.reorder-policy.yml`: which files `lint`, `test` and `fmt` take from
/// directories, the severity of each warning code, the analysis bound and default output
/// formats (docs/CONFIG.md). Found upward from the working directory, or named with `--config`.
///
/// ```yaml
/// include: ["policies/**"]
/// exclude: ["Tests/**/Fixtures/**"]
/// severity: { dead-rule: off, stuck-row: error }
/// analysis: { bound: 3x4 }
/// format: { lint: github, test: junit }
/// ```
public struct ProjectConfig: Sendable {
    /// The config file, as found or named.
    public var path: String
    /// The directory globs are relative to: the config file's.
    public var root: String
    /// Files found in directories are taken only when they match one of these (every file when empty).
    public var include: [Glob]
    /// Files found in directories are skipped when they match one of these.
    public var exclude: [Glob]
    /// Per warning code: `error`, `warning`, or nil for `off`.
    public var severities: [DiagnosticCode: Severity?]
    /// `analysis.enabled` (true unless the file says false).
    public var analysisEnabled: Bool
    /// `analysis.bound`, when given.
    public var analysisBound: AnalysisBound?
    /// `analysis.budget` in seconds, when given.
    public var analysisBudget: Double?
    /// `format.<command>`: the default output format of a command.
    public var formats: [String: String]

    /// The file names looked for, in order, in each directory from the working one upward.
    public static let fileNames = [".reorder-policy.yml", ".reorder-policy.yaml"]

    /// Codes a config may change: the warnings. Errors stay errors (a policy that cannot load
    /// must never pass because of a config file).
    public static let configurableCodes: [DiagnosticCode] = [
        .lockDisplaced, .deadRule, .neverSelects, .closedSection, .capacityConflict, .conflictingAnchors, .stuckRow, .analysisBudget, .unusedWaiver,
    ]

    /// Output formats per command (the CLI's `--format` values).
    public static let commandFormats: [String: [String]] = [
        "lint": LintReport.formats.map(\.name),
        "test": TestReport.formats.map(\.name),
    ]

    /// A config that changes nothing (no file).
    public init(root: String = ".") {
        path = ""
        self.root = root
        include = []
        exclude = []
        severities = [:]
        analysisEnabled = true
        analysisBound = nil
        analysisBudget = nil
        formats = [:]
    }

    /// The nearest config file in `directory` or a directory above it, or nil.
    public static func find(from directory: String = FileManager.default.currentDirectoryPath) -> String? {
        var dir = URL(fileURLWithPath: directory).standardizedFileURL
        while true {
            for name in fileNames {
                let candidate = dir.appendingPathComponent(name).path
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return candidate
                }
            }
            let parent = dir.deletingLastPathComponent()
            if parent.path == dir.path { return nil }
            dir = parent
        }
    }

    /// Loads the config at `path`: the config, or the located diagnostics that explain why
    /// not (with the source, for code frames, when it could be read).
    public static func load(path: String) -> (config: ProjectConfig?, source: SourceFile?, diagnostics: [Diagnostic]) {
        let source: SourceFile
        do {
            source = try SourceFile.read(path)
        } catch {
            return (nil, nil, [error.diagnostic])
        }
        let (config, diagnostics) = load(source)
        return (config, source, diagnostics)
    }

    /// Loads a config from a source already in memory.
    public static func load(_ source: SourceFile) -> (config: ProjectConfig?, diagnostics: [Diagnostic]) {
        let parsed = YAMLDocument.parse(source.bytes, file: source.path)
        guard let root = parsed.root, parsed.diagnostics.isEmpty else { return (nil, parsed.diagnostics) }
        var decoder = ConfigDecoder(d: NodeDecoder(file: source.path))
        let directory = URL(fileURLWithPath: source.path).deletingLastPathComponent().path
        let config = decoder.config(root, path: source.path, root: directory)
        let diagnostics = Diagnostic.sorted(decoder.d.diagnostics)
        return (diagnostics.isEmpty ? config : nil, diagnostics)
    }

    /// A number of seconds above 0 as `--analysis-budget` and `analysis.budget` take it (`5`, `0.5`).
    public static func seconds(_ text: String) -> Double? { ConfigDecoder.seconds(text, plain: true) }

    /// Whether a file found by walking a directory is taken: `path` as the walk joined it.
    public func takes(_ path: String) -> Bool {
        let relative = relativePath(path)
        if !include.isEmpty && !include.contains(where: { $0.matches(relative) }) { return false }
        return !exclude.contains { $0.matches(relative) }
    }

    /// Whether an exclude takes everything below the directory `path`, so a walk need not enter it.
    public func excludesDirectory(_ path: String) -> Bool {
        let relative = relativePath(path)
        return exclude.contains { $0.matches(relative + "/\u{0}") }
    }

    /// `path` relative to the config's directory (absolute paths outside it stay absolute).
    func relativePath(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let base = URL(fileURLWithPath: root).standardizedFileURL.path
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// The diagnostics with this config's severities applied (`off` removes them).
    public func apply(to diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !severities.isEmpty else { return diagnostics }
        return diagnostics.compactMap { d in
            guard Self.configurableCodes.contains(d.code), let configured = severities[d.code] else { return d }
            guard let severity = configured else { return nil }
            var copy = d
            copy.severity = severity
            return copy
        }
    }

    /// The config's JSON Schema (`schema --config`).
    public static let jsonSchema: String = {
        let codes = configurableCodes.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        let formats = commandFormats.sorted { $0.key < $1.key }.map { command, names in
            "\"\(command)\": { \"enum\": [\(names.map { "\"\($0)\"" }.joined(separator: ", "))] }"
        }.joined(separator: ",\n        ")
        return """
        {
          "$schema": "https://json-schema.org/draft/2020-12/schema",
          "$id": "https://reorder-policy.dev/schema/config.json",
          "title": "reorder-policy project configuration (.reorder-policy.yml)",
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "include": { "$ref": "#/$defs/globs", "description": "Files found in directories are taken only when one of these matches (relative to the config's directory)." },
            "exclude": { "$ref": "#/$defs/globs", "description": "Files found in directories are skipped when one of these matches. Files named on the command line are always taken." },
            "severity": {
              "type": "object",
              "description": "Per warning code: error, warning or off.",
              "propertyNames": { "enum": [\(codes)] },
              "additionalProperties": { "enum": ["error", "warning", "off"] }
            },
            "analysis": {
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "enabled": { "type": "boolean" },
                "bound": { "type": "string", "pattern": "^[1-6]x[1-8]$", "description": "SECTIONSxROWS, as --analysis-bound." },
                "budget": { "type": "number", "exclusiveMinimum": 0, "description": "Seconds per policy file, as --analysis-budget." }
              }
            },
            "format": {
              "type": "object",
              "additionalProperties": false,
              "description": "Default --format per command.",
              "properties": {
                \(formats)
              }
            }
          },
          "$defs": {
            "globs": {
              "oneOf": [
                { "type": "string", "minLength": 1 },
                { "type": "array", "items": { "type": "string", "minLength": 1 } }
              ]
            }
          }
        }

        """
    }()
}

/// A path pattern: `*` any characters but `/`, `**` any characters including `/` (as a whole
/// segment, also none: `a/**/b` matches `a/b`), `?` one character but `/`, `[abc]` one of
/// those; a pattern without `/` matches a file name in any directory (as `.gitignore` does);
/// a pattern ending in `/` or naming a directory matches everything below it.
public struct Glob: Sendable, Hashable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let segments: [String]
    private let anywhere: Bool

    /// Nil when the pattern is empty or has an unclosed `[`.
    public init?(_ pattern: String) {
        guard !pattern.isEmpty else { return nil }
        var p = pattern
        if p.hasPrefix("./") { p.removeFirst(2) }
        while p.hasPrefix("/") { p.removeFirst() }
        var segments = p.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard !segments.isEmpty else { return nil }
        for s in segments where !Self.bracketsClosed(s) { return nil }
        // A pattern naming a directory takes what is below it.
        if segments.last != "**" { segments.append("**") }
        self.pattern = pattern
        self.segments = segments
        anywhere = !p.dropLast(p.hasSuffix("/") ? 1 : 0).contains("/")
    }

    public var description: String { pattern }

    /// Whether `path` (relative, `/`-separated) matches.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if anywhere {
            // A name pattern: any suffix of the path may start the match.
            return parts.indices.contains { Self.match(segments[...], parts[$0...]) }
        }
        return Self.match(segments[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ parts: ArraySlice<String>) -> Bool {
        // Iterative over `**` with memo-free backtracking: each `**` tries each split once.
        guard let first = pattern.first else { return parts.isEmpty }
        if first == "**" {
            let rest = pattern.dropFirst()
            if rest.isEmpty { return true }
            var i = parts.startIndex
            while i <= parts.endIndex {
                if match(rest, parts[i...]) { return true }
                i += 1
            }
            return false
        }
        guard let part = parts.first, segment(Array(first.unicodeScalars), Array(part.unicodeScalars)) else { return false }
        return match(pattern.dropFirst(), parts.dropFirst())
    }

    /// One segment against one name: `*`, `?` and `[...]`, greedy with one backtrack point (linear).
    private static func segment(_ p: [Unicode.Scalar], _ s: [Unicode.Scalar]) -> Bool {
        var pi = 0, si = 0, star = -1, mark = 0
        while si < s.count {
            if pi < p.count, p[pi] == "*" {
                star = pi
                mark = si
                pi += 1
            } else if pi < p.count, let next = single(p, pi, s[si]) {
                pi = next
                si += 1
            } else if star >= 0 {
                pi = star + 1
                mark += 1
                si = mark
            } else {
                return false
            }
        }
        while pi < p.count && p[pi] == "*" { pi += 1 }
        return pi == p.count
    }

    /// If the pattern item at `pi` matches `c`, the index after it.
    private static func single(_ p: [Unicode.Scalar], _ pi: Int, _ c: Unicode.Scalar) -> Int? {
        switch p[pi] {
        case "?": return pi + 1
        case "[":
            var j = pi + 1, hit = false
            let negate = j < p.count && (p[j] == "!" || p[j] == "^")
            if negate { j += 1 }
            var first = true
            while j < p.count && (p[j] != "]" || first) {
                if j + 2 < p.count && p[j + 1] == "-" && p[j + 2] != "]" {
                    if p[j] <= c && c <= p[j + 2] { hit = true }
                    j += 3
                } else {
                    if p[j] == c { hit = true }
                    j += 1
                }
                first = false
            }
            return hit != negate ? j + 1 : nil
        default: return p[pi] == c ? pi + 1 : nil
        }
    }

    private static func bracketsClosed(_ s: String) -> Bool {
        var open = false
        for c in s {
            if c == "[" && !open { open = true } else if c == "]" && open { open = false }
        }
        return !open
    }
}

/// Decodes `.reorder-policy.yml` with located, coded diagnostics, as policies are.
struct ConfigDecoder {
    var d: NodeDecoder

    mutating func config(_ node: YAMLNode, path: String, root: String) -> ProjectConfig? {
        guard let keys = d.mapping(node, in: "the configuration", known: ["include", "exclude", "severity", "analysis", "format"]) else { return nil }
        var config = ProjectConfig(root: root)
        config.path = path
        if let entry = keys["include"] { config.include = globs(entry.value, "include") }
        if let entry = keys["exclude"] { config.exclude = globs(entry.value, "exclude") }
        if let entry = keys["severity"] { config.severities = severities(entry.value) }
        if let entry = keys["analysis"], let analysis = d.mapping(entry.value, in: "'analysis'", known: ["enabled", "bound", "budget"]) {
            if let enabled = analysis["enabled"] {
                switch enabled.value.scalar {
                case "true"?: config.analysisEnabled = true
                case "false"?: config.analysisEnabled = false
                default: d.error(.typeMismatch, "expected true or false for 'analysis.enabled', found \(enabled.value.typeName)", enabled.value)
                }
            }
            if let budget = analysis["budget"], let text = d.text(budget.value, expected: "a number of seconds for 'analysis.budget'") {
                if let value = ConfigDecoder.seconds(text, plain: budget.value.scalarStyle?.isPlain ?? false) {
                    config.analysisBudget = value
                } else {
                    d.error(.invalidValue, "'analysis.budget' expects a number of seconds above 0 such as 5 or 0.5, found '\(text)'", budget.value)
                }
            }
            if let bound = analysis["bound"], let text = d.text(bound.value, expected: "SECTIONSxROWS for 'analysis.bound'") {
                if let value = AnalysisBound(text) {
                    config.analysisBound = value
                } else {
                    d.error(.invalidValue, "'analysis.bound' expects SECTIONSxROWS such as 3x4 (sections 1...6, rows 1...8), found '\(text)'", bound.value)
                }
            }
        }
        if let entry = keys["format"] {
            let commands = ProjectConfig.commandFormats.keys.sorted()
            // In file order, so the diagnostics are too.
            for item in d.mapping(entry.value, in: "'format'", known: commands)?.entries ?? [] {
                let command = item.name
                guard let value = d.text(item.value, expected: "a format name for 'format.\(command)'") else { continue }
                let allowed = ProjectConfig.commandFormats[command]!  // a known key: `mapping` dropped the others
                if allowed.contains(value) {
                    config.formats[command] = value
                } else {
                    var message = "'\(value)' is not a format of \(command); expected \(allowed.joined(separator: ", "))"
                    if let guess = NodeDecoder.closest(to: value, in: allowed) { message += "; did you mean '\(guess)'?" }
                    d.error(.invalidValue, message, item.value)
                }
            }
        }
        return config
    }

    /// A plain decimal number of seconds above 0 (`5`, `0.5`), as `--analysis-budget` takes.
    static func seconds(_ text: String, plain: Bool) -> Double? {
        guard plain, !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              text.filter({ $0 == "." }).count <= 1, let value = Double(text), value > 0, value.isFinite else { return nil }
        return value
    }

    private mutating func globs(_ node: YAMLNode, _ key: String) -> [Glob] {
        let items = node.sequence ?? [node]
        var out: [Glob] = []
        for item in items {
            guard let text = d.text(item, expected: "a glob pattern in '\(key)'") else { continue }
            if let glob = Glob(text) {
                out.append(glob)
            } else {
                d.error(.invalidValue, "'\(text)' is not a glob pattern (empty, or a '[' without ']')", item,
                        help: "patterns use *, ** and ? and are relative to the configuration file's directory")
            }
        }
        return out
    }

    private mutating func severities(_ node: YAMLNode) -> [DiagnosticCode: Severity?] {
        guard let entries = node.mapping else {
            d.mismatch(node, expected: "a mapping from warning codes to error, warning or off for 'severity'")
            return [:]
        }
        var out: [DiagnosticCode: Severity?] = [:]
        let known = ProjectConfig.configurableCodes.map(\.rawValue)
        for entry in entries {
            let code = DiagnosticCode(rawValue: entry.name)
            guard let code, ProjectConfig.configurableCodes.contains(code) else {
                let isError = code != nil
                var message = isError
                    ? "'\(entry.name)' is an error, and errors cannot be configured"
                    : "unknown warning code '\(entry.name)'"
                if !isError, let guess = NodeDecoder.closest(to: entry.name, in: known) { message += "; did you mean '\(guess)'?" }
                d.error(isError ? .invalidValue : .unknownKey, message, entry.key, help: "codes that can be configured: \(known.joined(separator: ", "))")
                continue
            }
            switch entry.value.scalar {
            case "error"?: out[code] = .some(.error)
            case "warning"?: out[code] = .some(.warning)
            case "off"?: out[code] = .some(nil)
            default:
                d.error(.invalidValue, "expected error, warning or off for '\(entry.name)', found \(entry.value.scalar.map { "'\($0)'" } ?? entry.value.typeName)", entry.value)
            }
        }
        return out
    }
}
