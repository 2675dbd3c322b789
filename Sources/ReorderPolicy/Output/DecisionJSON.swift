import SpannedYAML
/// The JSON of `check` and `explain` (SPEC §5.1), written with a fixed key order.
package enum DecisionJSON {
    /// Counts per decision, for the summary.
    package struct Summary: Sendable {
        /// Counts per decision word.
        package var allowed = 0, retargeted = 0, rejected = 0, denied = 0, invalid = 0
        package init() {}

        /// Counts one decision.
        package mutating func add(_ kind: DecisionKind) {
            switch kind {
            case .allowed: allowed += 1
            case .retargeted: retargeted += 1
            case .rejected: rejected += 1
            case .denied: denied += 1
            }
        }

        /// Adds the counts of `other`.
        package mutating func add(_ other: Summary) {
            allowed += other.allowed
            retargeted += other.retargeted
            rejected += other.rejected
            denied += other.denied
            invalid += other.invalid
        }

        /// SPEC §5: 2 if any move was invalid, 1 if any was not allowed, else 0.
        package var exitStatus: Int32 {
            if invalid > 0 { return 2 }
            return retargeted + rejected + denied > 0 ? 1 : 0
        }
    }

    /// A move: `{"from": [s, r], "to": [s, r]}` or `{"section-from": a, "section-to": b}`.
    package static func move(_ move: Move, into w: inout JSONWriter) {
        switch move {
        case .row(let from, let to):
            w.raw("{\"from\": ")
            w.pair(from.section, from.row)
            w.raw(", \"to\": ")
            w.pair(to.section, to.row)
            w.raw("}")
        case .section(let from, let to):
            w.raw("{\"section-from\": ")
            w.int(from)
            w.raw(", \"section-to\": ")
            w.int(to)
            w.raw("}")
        }
    }

    /// A target: `[s, r]` for rows, an integer for sections.
    package static func destination(_ d: Destination, into w: inout JSONWriter) {
        switch d {
        case .row(let p): w.pair(p.section, p.row)
        case .section(let i): w.int(i)
        }
    }

    /// The fields of an offset move: `"from-offsets": [...], "to-offset": n, "section": s`
    /// (no braces), shared by `check` results and decision-log records.
    package static func offsetFields(_ offsets: [Int], toOffset: Int, section: Int, into w: inout JSONWriter) {
        w.raw("\"from-offsets\": [")
        for (n, o) in offsets.enumerated() {
            if n > 0 { w.raw(", ") }
            w.int(o)
        }
        w.raw("], \"to-offset\": ")
        w.int(toOffset)
        w.raw(", \"section\": ")
        w.int(section)
    }

    /// A rule location `{"file", "line", "column"}`, or `null`.
    package static func location(_ l: SourceLocation?, into w: inout JSONWriter) {
        guard let l else { return w.raw("null") }
        w.raw("{\"file\": ")
        w.string(l.file)
        w.raw(", \"line\": ")
        w.int(l.line)
        w.raw(", \"column\": ")
        w.int(l.column)
        w.raw("}")
    }

    /// A string, or `null`.
    package static func optionalString(_ s: String?, into w: inout JSONWriter) {
        if let s { w.string(s) } else { w.raw("null") }
    }

    /// Everything of a violation but its reason, which is the only part that varies per move.
    package static func violationPrefix(_ rule: RuleReference) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        w.raw("{\"rule\": ")
        w.string(rule.id)
        w.raw(", \"kind\": ")
        w.string(rule.kind)
        w.raw(", \"message\": ")
        optionalString(rule.message, into: &w)
        w.raw(", \"location\": ")
        location(rule.location, into: &w)
        w.raw(", \"reason\": ")
        return w.bytes
    }

    /// ``violationPrefix(_:)`` per rule, made once per rule and copied from one buffer.
    package struct PrefixCache: Sendable {
        /// The prefixes made so far, one after another.
        private var bytes: [UInt8] = []
        /// Where each rule's prefix is in `bytes`, by the rule's ordinal (empty: not made yet;
        /// a prefix is never empty).
        private var ranges: [Range<Int>] = []
        package init() {}

        /// Writes `rule`'s prefix.
        mutating func write(_ rule: RuleReference, into w: inout JSONWriter) {
            guard rule.ordinal >= 0 else { return DecisionJSON.violationPrefix(rule).withUnsafeBufferPointer { w.append(buffer: $0) } }
            write(rule.ordinal, into: &w) { rule }
        }

        /// Writes the prefix of row rule `index` of `compiled` (its ordinal is its index); its
        /// reference is read only the first time.
        @inline(__always)
        mutating func write(rowRule index: Int, of compiled: CompiledPolicy, into w: inout JSONWriter) {
            write(index, into: &w) { compiled.rowRuleReferences[index] }
        }

        /// Writes the prefix of the rule whose ordinal is `n`, made from `rule()` the first time.
        @inline(__always)
        private mutating func write(_ n: Int, into w: inout JSONWriter, rule: () -> RuleReference) {
            if n >= ranges.count || ranges[n].isEmpty { make(n, rule()) }
            let range = ranges[n]
            bytes.withUnsafeBufferPointer { w.append(buffer: UnsafeBufferPointer(rebasing: $0[range])) }
        }

        private mutating func make(_ n: Int, _ rule: RuleReference) {
            if n >= ranges.count { ranges += Array(repeating: 0..<0, count: n + 1 - ranges.count) }
            let made = DecisionJSON.violationPrefix(rule)
            ranges[n] = bytes.count..<bytes.count + made.count
            bytes += made
        }
    }

    /// The fields of one decided result, without the closing brace (explain appends more).
    package static func resultFields(_ d: Decision, into w: inout JSONWriter) {
        var cache = PrefixCache()
        resultFields(d, cache: &cache, into: &w)
    }

    /// A result's fields up to its violations' list, opened.
    private static func resultHead(_ m: Move, _ kind: DecisionKind, _ target: Destination, into w: inout JSONWriter) {
        if case .row(let from, let to) = m, case .row(let t) = target {
            // A row move's head in one go: three pairs (44 bytes at most each: two numbers of
            // 20 digits and a sign, `[`, `, `, `]`), a decision word (10 bytes at most) and 72
            // bytes of keys and punctuation.
            return w.withRoom(3 * 44 + 10 + 72) { room in
                room.raw("{\"move\": {\"from\": ")
                room.pair(from.section, from.row)
                room.raw(", \"to\": ")
                room.pair(to.section, to.row)
                room.raw("}, \"decision\": \"")
                room.raw(kind.staticName)
                room.raw("\", \"target\": ")
                room.pair(t.section, t.row)
                room.raw(", \"violations\": [")
            }
        }
        w.raw("{\"move\": ")
        move(m, into: &w)
        w.raw(", \"decision\": \"")
        w.raw(kind.staticName)
        w.raw("\", \"target\": ")
        destination(target, into: &w)
        w.raw(", \"violations\": [")
    }

    /// The fields of one decided result, reusing cached violation prefixes.
    package static func resultFields(_ d: Decision, cache: inout PrefixCache, into w: inout JSONWriter) {
        resultHead(d.move, d.kind, d.target, into: &w)
        for n in 0..<d.violationCount {
            let v = d.violation(at: n)
            if n > 0 { w.raw(", ") }
            cache.write(v.ruleReference, into: &w)
            reason(v.details, into: &w)
            w.raw("}")
        }
        w.raw("]")
    }

    /// The fields of one decided result given as an outline: each reason is worded straight
    /// into the output, so no decision, violation or reason is kept (issue #26). The same
    /// bytes as the result of `bound.decide(outline.move)`. `address` is where the caller keeps
    /// `bound` (a copy of it) for the call (``BoundPolicy/withJSONReason(_:of:at:_:)``).
    package static func resultFields(_ o: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, cache: inout PrefixCache,
                                     into w: inout JSONWriter) {
        resultHead(o.move, o.kind, o.target, into: &w)
        var first = true
        o.rules.forEach { index in
            if !first { w.raw(", ") }
            first = false
            cache.write(rowRule: index, of: bound.compiled, into: &w)
            w.raw("\"")
            bound.withJSONReason(index, of: o, at: address) { w.append(buffer: $0) }
            w.raw("\"}")
        }
        w.raw("]")
    }

    /// A reason as a JSON string: its text, escaped in one go.
    package static func reason(_ r: Reason, into w: inout JSONWriter) {
        w.raw("\"")
        r.utf8.withUnsafeBufferPointer { w.escaped($0) }
        w.raw("\"")
    }

    /// One decided result.
    package static func result(_ d: Decision, into w: inout JSONWriter) {
        resultFields(d, into: &w)
        w.raw("}")
    }

    /// One decided result, reusing cached violation prefixes.
    package static func result(_ d: Decision, cache: inout PrefixCache, into w: inout JSONWriter) {
        resultFields(d, cache: &cache, into: &w)
        w.raw("}")
    }

    /// One result given as an outline (see ``resultFields(_:bound:at:cache:into:)``).
    package static func result(_ o: DecisionOutline, bound: BoundPolicy, at address: UnsafePointer<BoundPolicy>, cache: inout PrefixCache,
                               into w: inout JSONWriter) {
        resultFields(o, bound: bound, at: address, cache: &cache, into: &w)
        w.raw("}")
    }

    /// A decided offset move: `{"move": <as given>, "decision", "target", "violations"}`.
    static func blockResult(_ block: BlockResult, into w: inout JSONWriter) {
        let decision = block.decision
        w.raw("{\"move\": ")
        block.echo(&w)
        w.raw(", \"decision\": \"")
        w.raw(decision.kind.staticName)
        w.raw("\", \"target\": ")
        w.pair(decision.target.section, decision.target.row)
        w.raw(", \"violations\": [")
        for (n, v) in decision.violations.enumerated() {
            if n > 0 { w.raw(", ") }
            violationPrefix(v.ruleReference).withUnsafeBufferPointer { w.append(buffer: $0) }
            reason(v.details, into: &w)
            w.raw("}")
        }
        w.raw("]}")
    }

    /// An `invalid` result: the move as given and the error.
    package static func invalid(given: (inout JSONWriter) -> Void, error: String, into w: inout JSONWriter) {
        w.raw("{\"move\": ")
        given(&w)
        w.raw(", \"decision\": \"invalid\", \"error\": ")
        w.string(error)
        w.raw("}")
    }

    /// A YAML node echoed as JSON, "as given" (SPEC §7): a plain scalar that is JSON's
    /// `true`, `false`, `null` or a JSON number stays that value (a server client that sent
    /// `null` or `1e2` gets `null` and `1e2` back, not strings); other scalars are strings.
    package static func node(_ node: YAMLNode, into w: inout JSONWriter) {
        switch node.content {
        case .scalar(let text, let style):
            if style.isPlain, let value = NodeDecoder.plainInteger(text) {
                w.int(value)
            } else if style.isPlain, isJSONLiteral(text) {
                w.bytes(text)
            } else {
                w.string(text)
            }
        case .sequence(let items):
            w.raw("[")
            for (n, item) in items.enumerated() {
                if n > 0 { w.raw(", ") }
                self.node(item, into: &w)
            }
            w.raw("]")
        case .mapping(let entries):
            w.raw("{")
            for (n, entry) in entries.enumerated() {
                if n > 0 { w.raw(", ") }
                w.string(entry.name)
                w.raw(": ")
                self.node(entry.value, into: &w)
            }
            w.raw("}")
        case .invalid:
            w.raw("null")
        }
    }

    /// Whether `text` is a JSON literal or number as written, so it can be echoed unquoted:
    /// the one JSON reader reads it as a plain scalar (a string would be double-quoted). A
    /// number past a `Double`'s range (`1e400`) is not: many JSON readers (Foundation's among
    /// them) refuse the whole document for it, so it is echoed as a string.
    static func isJSONLiteral(_ text: String) -> Bool {
        guard case .success(let node) = JSONDocument.parse(Array(text.utf8), file: ""),
              case .scalar(_, let style) = node.content, style.isPlain else { return false }
        return text.first?.isLetter == true || Double(text)?.isFinite == true
    }

    /// The document's opening, up to the results list.
    package static func open(policy name: String, into w: inout JSONWriter) {
        w.raw("{\n  \"policy\": ")
        w.string(name)
        w.raw(",\n  \"results\": [")
    }

    /// Separator before result number `index`.
    @inline(__always)
    package static func separator(_ index: Int, into w: inout JSONWriter) {
        w.raw(index == 0 ? "\n    " : ",\n    ")
    }

    /// The document's close when the input failed part-way (a moves file that turns bad):
    /// the results so far, `"errors"` with the located diagnostics, and the summary, so the
    /// output is always one complete JSON document.
    package static func close(_ s: Summary, empty: Bool, errors: [Diagnostic], into w: inout JSONWriter) {
        guard !errors.isEmpty else { return close(s, empty: empty, into: &w) }
        w.raw(empty ? "],\n" : "\n  ],\n")
        w.raw("  \"errors\": [")
        for (n, d) in errors.enumerated() {
            w.raw(n == 0 ? "\n    " : ",\n    ")
            DiagnosticRenderer.diagnosticJSON(d, into: &w)
        }
        close(s, empty: false, into: &w)  // closes the errors list, then the summary
    }

    /// The whole JSON output when the inputs failed before any move was decided (a policy or
    /// table with errors, an unreadable file): the same document `check` writes, with no
    /// results, the located `"errors"` and a zero summary — never an empty standard output.
    /// `policy` is the policy's name when it was read.
    package static func inputFailure(policy name: String?, errors: [Diagnostic], lines: Bool) -> String {
        var w = JSONWriter()
        if lines {
            summaryLine(policy: name, Summary(), errors: errors, into: &w)
        } else {
            w.raw("{\n  \"policy\": ")
            optionalString(name, into: &w)
            w.raw(",\n  \"results\": [")
            close(Summary(), empty: true, errors: errors, into: &w)
        }
        return w.text
    }

    /// The last line of JSON Lines output: `{"policy": …, "summary": {…}}`, with `"errors"`
    /// first when the input failed part-way.
    package static func summaryLine(policy name: String?, _ s: Summary, errors: [Diagnostic], into w: inout JSONWriter) {
        w.raw("{\"policy\": ")
        optionalString(name, into: &w)
        if !errors.isEmpty {
            w.raw(", \"errors\": [")
            for (n, d) in errors.enumerated() {
                if n > 0 { w.raw(", ") }
                DiagnosticRenderer.diagnosticJSON(d, into: &w)
            }
            w.raw("]")
        }
        w.raw(", \"summary\": {")
        for (n, (name, value)) in counts(s).enumerated() {
            if n > 0 { w.raw(", ") }
            w.raw("\"")
            w.raw(name)
            w.raw("\": ")
            w.int(value)
        }
        w.raw("}, \"format\": ")
        w.int(JSONWriter.format)
        w.raw("}\n")
    }

    /// The summary's counts in their fixed order.
    static func counts(_ s: Summary) -> KeyValuePairs<StaticString, Int> {
        ["allowed": s.allowed, "retargeted": s.retargeted, "rejected": s.rejected, "denied": s.denied, "invalid": s.invalid]
    }

    /// The document's close with the summary.
    package static func close(_ s: Summary, empty: Bool, into w: inout JSONWriter) {
        w.closeList(empty: empty, summary: counts(s))
    }

    /// The explain fields: `valid` and `trace`, appended to a result before its closing brace.
    package static func explanationFields(_ e: Explanation, into w: inout JSONWriter, trace: Bool = true) {
        w.raw(", \"valid\": [")
        if case .section = e.decision.move {
            for (n, r) in e.validSections.enumerated() {
                if n > 0 { w.raw(", ") }
                w.pair(r.lowerBound, r.upperBound)
            }
        } else {
            for (n, v) in e.validRows.enumerated() {
                if n > 0 { w.raw(", ") }
                w.raw("{\"section\": ")
                w.int(v.section)
                w.raw(", \"rows\": [")
                for (m, r) in v.rows.enumerated() {
                    if m > 0 { w.raw(", ") }
                    w.pair(r.lowerBound, r.upperBound)
                }
                w.raw("]}")
            }
        }
        guard trace else { return w.raw("]") }
        w.raw("], \"trace\": [")
        for (n, t) in e.trace.enumerated() {
            w.raw(n == 0 ? "\n      " : ",\n      ")
            w.raw("{\"rule\": ")
            w.string(t.rule)
            w.raw(", \"kind\": ")
            w.string(t.kind)
            w.raw(", \"applies\": ")
            w.bool(t.applies)
            w.raw(", \"verdict\": ")
            w.string(t.verdict.rawValue)
            w.raw(", \"reason\": ")
            reason(t.details, into: &w)
            w.raw(", \"location\": ")
            location(t.location, into: &w)
            w.raw("}")
        }
        w.raw(e.trace.isEmpty ? "]" : "\n    ]")
    }
}

extension DecisionKind {
    /// The keyword as a static string, for the writer's fast path.
    var staticName: StaticString {
        switch self {
        case .allowed: "allowed"
        case .retargeted: "retargeted"
        case .rejected: "rejected"
        case .denied: "denied"
        }
    }
}
