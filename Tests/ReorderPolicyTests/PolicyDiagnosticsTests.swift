import SpannedYAML
import Testing
import ReorderPolicy

@Suite struct PolicyDiagnosticsTests {
    static let header = "reorder-policy: 1\nname: t\n"

    static let cases: [BrokenPolicy] = [
        // YAML handling, through the policy loader.
        BrokenPolicy("broken flow", .yamlSyntax, header + "rules: [\n»"),
        BrokenPolicy("alias", .yamlAlias, header + "rules:\n  - lock: »&a all\n  - lock: *a\n"),
        BrokenPolicy("tag", .yamlTag, header + "rules:\n  - lock: »!rows all\n"),
        BrokenPolicy("second document", .yamlMultiDocument, header + "rules: []\n»---\nname: again\n"),
        BrokenPolicy("empty", .yamlEmpty, "»"),
        BrokenPolicy("duplicate key", .duplicateKey, header + "rules: []\n»name: again\n"),
        BrokenPolicy("too deep", .tooDeep, header + "rules:\n  - lock: { id: " + String(repeating: "[", count: 60) + "»[" + String(repeating: "]", count: 61) + " }\n"),
        // Decoding.
        BrokenPolicy("unknown key in rule", .unknownKey, header + "rules:\n  - »pinn: { first: 1 }\n", message: "did you mean 'pin'?"),
        BrokenPolicy("unknown top-level key", .unknownKey, header + "rules: []\n»rule: []\n", message: "did you mean 'rules'?"),
        BrokenPolicy("unknown selector key", .unknownKey, header + "rules:\n  - pin: { »frist: 1 }\n", message: "did you mean 'first'?"),
        BrokenPolicy("anchor outside pin", .unknownKey, header + "rules:\n  - lock: { first: 1, »anchor: end }\n"),
        BrokenPolicy("missing version", .missingKey, "»name: t\nrules: []\n", message: "'reorder-policy'"),
        BrokenPolicy("missing name", .missingKey, "»reorder-policy: 1\nrules: []\n", message: "'name'"),
        BrokenPolicy("missing rules", .missingKey, "»reorder-policy: 1\nname: t\n", message: "'rules'"),
        BrokenPolicy("accept without section", .missingKey, header + "rules:\n  - accept: »{ from: 0 }\n"),
        BrokenPolicy("capacity without limits", .missingKey, header + "rules:\n  - capacity: »{ section: 0 }\n"),
        BrokenPolicy("rules not a list", .typeMismatch, header + "rules: »lock\n"),
        BrokenPolicy("row selector scalar", .typeMismatch, header + "rules:\n  - lock: »everything\n"),
        BrokenPolicy("quoted integer", .typeMismatch, header + "rules:\n  - pin: { first: »\"2\" }\n"),
        BrokenPolicy("float", .typeMismatch, header + "rules:\n  - pin: { first: »1.5 }\n"),
        BrokenPolicy("overflow", .typeMismatch, header + "rules:\n  - pin: { first: »99999999999999999999 }\n"),
        BrokenPolicy("overflowing section index", .typeMismatch, header + "rules:\n  - lock: { section: »-99999999999999999999 }\n"),
        BrokenPolicy("version as string", .typeMismatch, "reorder-policy: »\"1\"\nname: t\nrules: []\n"),
        // SPEC §8: unions, `not`, section mappings, attribute bounds.
        BrokenPolicy("not with nothing inside", .typeMismatch, header + "rules:\n  - lock: { not: »}\n", message: "found an empty value"),
        BrokenPolicy("not with nothing inside, block", .typeMismatch, header + "rules:\n  - lock:\n      not:»\n"),
        BrokenPolicy("not as a word", .typeMismatch, header + "rules:\n  - lock: { not: »header }\n"),
        BrokenPolicy("misspelt not", .unknownKey, header + "rules:\n  - lock: { »nott: { kind: x } }\n", message: "did you mean 'not'?"),
        BrokenPolicy("anchor in a list item", .unknownKey, header + "rules:\n  - pin: [ { first: 1, »anchor: end } ]\n"),
        BrokenPolicy("anchor under not", .unknownKey, header + "rules:\n  - pin: { not: { first: 1, »anchor: end } }\n"),
        BrokenPolicy("scalar in a row list", .typeMismatch, header + "rules:\n  - lock: [ { first: 1 }, »header ]\n"),
        BrokenPolicy("conflict under not", .selectorConflict, header + "rules:\n  - lock: { not: { first: 1, »last: 1 } }\n"),
        BrokenPolicy("conflict in a list item", .selectorConflict, header + "rules:\n  - lock: [ all, { index: 0, »first: 1 } ]\n"),
        BrokenPolicy("misspelt section key", .unknownKey, header + "rules:\n  - lock: { section: { »knd: bucket } }\n", message: "did you mean 'kind'?"),
        BrokenPolicy("nested section list", .typeMismatch, header + "rules:\n  - keep-order: [0, »[1]]\n"),
        BrokenPolicy("quoted section index in a mapping", .typeMismatch, header + "rules:\n  - keep-order: { index: »\"1\" }\n"),
        BrokenPolicy("section mapping in a list", .unknownKey, header + "rules:\n  - keep-order: [0, { »tags: x }]\n", message: "did you mean 'tag'?"),
        BrokenPolicy("empty section not", .typeMismatch, header + "rules:\n  - keep-order: { not: »}\n"),
        BrokenPolicy("section rule by kind", .unknownKey, header + "rules: []\nsection-rules:\n  - lock: { »kind: x }\n"),
        BrokenPolicy("keep-order as a section rule", .unknownKey, header + "rules: []\nsection-rules:\n  - »keep-order: 0\n"),
        BrokenPolicy("attribute on a non-capacity field", .typeMismatch, header + "rules:\n  - pin: { first: »{ attribute: wip } }\n"),
        BrokenPolicy("misspelt attribute", .unknownKey, header + "rules:\n  - capacity: { section: 0, max: { »atribute: wip } }\n", message: "did you mean 'attribute'?"),
        BrokenPolicy("attribute bound with no name", .missingKey, header + "rules:\n  - capacity: { section: 0, max: »{} }\n"),
        BrokenPolicy("attribute name a list", .typeMismatch, header + "rules:\n  - capacity: { section: 0, min: { attribute: »[a] } }\n"),
        BrokenPolicy("attribute bound with a second key", .unknownKey, header + "rules:\n  - capacity: { section: 0, max: { attribute: wip, »min: 1 } }\n"),
        BrokenPolicy("non-integer attribute in a test table", .typeMismatch, header + "rules: []\ntests:\n  - name: x\n    table: { sections: [ { attributes: { wip: »\"3\" }, rows: [a] } ] }\n    move: { from: [0, 0], to: [0, 0] }\n    expect: allowed\n"),
        BrokenPolicy("zero count", .invalidValue, header + "rules:\n  - pin: { first: »0 }\n"),
        BrokenPolicy("negative max", .invalidValue, header + "rules:\n  - capacity: { section: 0, max: »-1 }\n"),
        BrokenPolicy("unknown retarget", .invalidValue, header + "retarget: »nearst\nrules: []\n", message: "did you mean 'nearest'?"),
        BrokenPolicy("unknown anchor", .invalidValue, header + "rules:\n  - pin: { first: 1, anchor: »top }\n"),
        BrokenPolicy("empty name", .invalidValue, "reorder-policy: 1\nname: »\"\"\nrules: []\n"),
        BrokenPolicy("unknown rule in expect", .invalidValue, header + "rules:\n  - pin: { first: 1 }\ntests:\n  - name: x\n    table: { sections: [ { rows: [a] } ] }\n    move: { from: [0, 0], to: [0, 0] }\n    expect: { decision: denied, rules: [»rule-2] }\n"),
        BrokenPolicy("version 2", .unsupportedVersion, "reorder-policy: »2\nname: t\nrules: []\n"),
        BrokenPolicy("no rule kind", .ruleKind, header + "rules:\n  - »id: lonely\n"),
        BrokenPolicy("two rule kinds", .ruleKind, header + "rules:\n  - »lock: all\n    pin: all\n"),
        BrokenPolicy("explicit id clashes with a default", .duplicateRuleID, header + "rules:\n  - lock: all\n  - pin: all\n    id: »rule-1\n"),
        BrokenPolicy("ids unique across both lists", .duplicateRuleID, header + "rules:\n  - lock: all\n    id: top\nsection-rules:\n  - pin: { first: 1 }\n    id: »top\n"),
        BrokenPolicy("first and last", .selectorConflict, header + "rules:\n  - pin: { first: 1, »last: 1 }\n"),
        BrokenPolicy("index and first", .selectorConflict, header + "rules:\n  - lock: { index: 3, »first: 1 }\n"),
        BrokenPolicy("reserve first and last", .selectorConflict, header + "rules:\n  - reserve: { last: 1, »first: 1 }\n"),
        BrokenPolicy("section rule two targets", .selectorConflict, header + "rules: []\nsection-rules:\n  - pin: { first: 1, »section: 2 }\n"),
    ]

    @Test(arguments: cases)
    func firstDiagnosticHasCodeAndPosition(_ c: BrokenPolicy) throws {
        let document = PolicyLoader.load(text: c.source.text, path: "p.yaml")
        let d = try #require(document.diagnostics.first, "no diagnostic")
        #expect(d.code == c.code, "\(document.diagnostics.map { "\($0.code) \($0.span.start.line):\($0.span.start.column) \($0.message)" })")
        #expect(d.span.start.line == c.source.line, "\(d.message)")
        #expect(d.span.start.column == c.source.column, "\(d.message)")
        #expect(d.file == "p.yaml")
        #expect(document.policy == nil)
        if let m = c.messageContains { #expect(d.message.contains(m), "\(d.message)") }
    }

    @Test func everyMistakeInAFileIsReportedInOrder() {
        let text = Self.header + """
            rules:
              - pinn: all
              - lock: { first: 0 }
              - pin: { last: 1, index: 2 }
              - capacity: { section: 0, max: "3" }
            """
        let document = PolicyLoader.load(text: text, path: "p.yaml")
        #expect(document.diagnostics.map(\.code) == [.unknownKey, .invalidValue, .selectorConflict, .typeMismatch])
        #expect(document.diagnostics.map(\.span.start.line) == [4, 5, 6, 7])
    }

    @Test func tooLargeFileIsRefusedBeforeReading() throws {
        let path = "/tmp/reorder-policy-too-large-\(UInt32.random(in: 0...UInt32.max)).yaml"
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: 9 * 1024 * 1024)
        try writeFile(path, bytes)
        defer { unlink(path) }
        let document = try PolicyLoader.load(path: path)
        #expect(document.diagnostics.map(\.code) == [.tooLarge])
        #expect(document.diagnostics.first?.span.start.line == 1)
    }

    @Test func aValidPolicyDecodesEveryConstruct() throws {
        let text = """
            reorder-policy: 1
            name: everything
            description: all the kinds
            retarget: cancel
            rules:
              - lock: { section: [Inbox, -1, "2"], kind: [status] }
              - pin: { last: 2, anchor: start }
                id: bottom
                message: stays
              - reserve: { first: 1, section: all }
              - keep-in-section: { tag: blocked, id: [a, b] }
              - accept: { section: Archive, from: [], rows: { index: [0, -1] } }
              - capacity: { section: [all, 3], max: 3, min: 0 }
            section-rules:
              - lock: { section: -1 }
              - pin: { first: 1, anchor: end }
            """
        let document = PolicyLoader.load(text: text, path: "p.yaml")
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        let policy = try #require(document.policy)
        #expect(policy.retarget == .cancel)
        #expect(policy.rules.map(\.metadata.id) == ["rule-1", "bottom", "rule-3", "rule-4", "rule-5", "rule-6"])
        #expect(policy.rules[0].kind == .lock(RowSelector(section: .some([.id("Inbox"), .index(-1), .id("2")]), kinds: ["status"])))
        #expect(policy.rules[1].kind == .pin(RowSelector(position: .last(2)), anchor: .start))
        #expect(policy.rules[1].metadata.message == "stays")
        #expect(policy.rules[1].metadata.location == SourceLocation(file: "p.yaml", line: 7, column: 5))
        #expect(policy.rules[2].kind == .reserve(edge: .start, count: 1, section: .all))
        #expect(policy.rules[4].kind == .accept(section: .id("Archive"), from: .some([]), rows: RowSelector(position: .indices([0, -1]))))
        #expect(policy.rules[5].kind == .capacity(section: .all, max: 3, min: 0))
        #expect(policy.sectionRules.map(\.metadata.id) == ["section-rule-1", "section-rule-2"])
        #expect(policy.sectionRules[1].kind == .pin(.first(1), anchor: .end))
    }

    @Test func tablesReadScalarsAsIds() throws {
        let (table, diagnostics) = TableLoader.load(text: "sections:\n  - id: 2\n    rows: [010, yes, { id: x, kind: k, tags: [a] }]\n  - rows: []\n")
        #expect(diagnostics.isEmpty)
        #expect(table == Table(sections: [
            Section(id: "2", rows: [Row(id: "010"), Row(id: "yes"), Row(id: "x", kind: "k", tags: ["a"])]),
            Section(rows: []),
        ]))
    }

    @Test func sectionsCarryKindsTagsAndAttributes() throws {
        let (table, diagnostics) = TableLoader.load(text: """
            sections:
              - { id: Doing, kind: bucket, tags: [active], attributes: { wip: 3, floor: 0 }, rows: [A] }
              - { kind: null, tags: ~, rows: [] }
              - { kind: 7, rows: [] }
            """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(table == Table(sections: [
            Section(id: "Doing", kind: "bucket", tags: ["active"], attributes: ["wip": 3, "floor": 0], rowIDs: ["A"]),
            Section(rows: []),
            Section(kind: "7", rows: []),
        ]))
    }

    @Test func languageAdditionsDecode() throws {
        let text = Self.header + """
            rules:
              - lock: [ [ { kind: ad } ], { not: { tag: keep } }, all ]
              - pin: { section: { kind: [a, b], not: [0, { id: all }] }, last: 1, not: [] }
              - capacity: { section: [ { tag: active }, Inbox ], max: { attribute: wip }, min: 1 }
              - keep-order: { }
              - accept: { section: { index: [-1, 0] }, from: { not: all }, rows: [] }
            """
        let document = PolicyLoader.load(text: text, path: "p.yaml")
        #expect(document.diagnostics.isEmpty, "\(document.diagnostics)")
        let policy = try #require(document.policy)
        // Nested lists read as one list (SPEC §8.5).
        #expect(policy.rules[0].kind == .lock(.anyOf([RowSelector(kinds: ["ad"]), RowSelector(not: RowSelector(tags: ["keep"])), .all])))
        let pinSections = SectionSelector.matching(SectionFilter(kinds: ["a", "b"], not: .some([.index(0), .matching(SectionFilter(ids: ["all"]))])))
        #expect(policy.rules[1].kind == .pin(RowSelector(section: pinSections, position: .last(1), not: .anyOf([])), anchor: nil))
        #expect(policy.rules[2].kind == .capacity(section: .some([.matching(SectionFilter(tags: ["active"])), .id("Inbox")]),
                                                  max: .attribute("wip"), min: 1))
        #expect(policy.rules[3].kind == .keepOrder(.matching(SectionFilter())))
        #expect(policy.rules[4].kind == .accept(section: .matching(SectionFilter(indices: [-1, 0])), from: .matching(SectionFilter(not: .all)),
                                                rows: .anyOf([])))
    }

    @Test(arguments: [
        ("sections: [ { »row: [a] } ]", DiagnosticCode.unknownKey),
        ("»{}", DiagnosticCode.missingKey),
        ("sections: [ { rows: [ »{ kind: x } ] } ]", DiagnosticCode.missingKey),
        ("sections: [ { rows: »a } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { rows: [ { id: a, tags: »x } ] } ]", DiagnosticCode.typeMismatch),
        // SPEC §8.2, §8.5: attributes are plain integers >= 0; rows have none.
        ("sections: [ { attributes: { wip: »\"3\" }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: { wip: »-1 }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: { wip: »null }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: { wip: »1.5 }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: { wip: »[1] }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: { wip: »99999999999999999999 }, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { attributes: »3, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { tags: »x, rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { kind: »[a], rows: [] } ]", DiagnosticCode.typeMismatch),
        ("sections: [ { »attribute: { wip: 1 }, rows: [] } ]", DiagnosticCode.unknownKey),
        ("sections: [ { rows: [ { id: a, »attributes: { wip: 1 } } ] } ]", DiagnosticCode.unknownKey),
    ])
    func brokenTablesAreLocated(_ marked: String, _ code: DiagnosticCode) throws {
        let source = MarkedSource(marked)
        let (table, diagnostics) = TableLoader.load(text: source.text, path: "t.yaml")
        #expect(table == nil)
        let d = try #require(diagnostics.first { $0.code == code }, "\(diagnostics)")
        #expect(d.span.start.line == source.line)
        #expect(d.span.start.column == source.column)
    }
}

func writeFile(_ path: String, _ bytes: [UInt8]) throws {
    guard let file = fopen(path, "wb") else { throw CocoaLikeError() }
    defer { fclose(file) }
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
}

struct CocoaLikeError: Error {}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
