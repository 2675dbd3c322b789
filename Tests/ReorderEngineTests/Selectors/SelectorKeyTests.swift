import Foundation
import Testing
import ReorderEngine
import ReorderPolicy

/// Every registered selector key is covered: the reference evaluator and the random policies
/// know it, the schema and the guide list it, and its three meanings agree — the engine's
/// concrete test (``RowSelectorKey/bind(_:)``), the analysis's symbolic meaning on a row whose
/// every attribute is chosen, and the SPEC's, written in the tests. A key added to the registry
/// without its test conformances fails here, not silently.
@Suite struct SelectorKeyTests {
    @Test func everyKeyHasAReferenceMeaningAndARandomGenerator() {
        for key in RowSelectorRegistry.keys {
            #expect(key is any ReferenceKeyMeaning.Type, "\(key.keyword): conform its type to ReferenceKeyMeaning in its test file")
            #expect(key is any RandomSelectorKey.Type, "\(key.keyword): conform its type to RandomSelectorKey in its test file")
        }
    }

    @Test func keywordsAreDistinctAndDocumented() throws {
        let keywords = RowSelectorRegistry.keys.map { $0.keyword }
        #expect(Set(keywords).count == keywords.count)
        let guide = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../docs/LANGUAGE.md")
        let text = try String(contentsOf: guide, encoding: .utf8)
        for keyword in keywords {
            #expect(text.contains("| `\(keyword)`") || text.contains("| `\(keyword):"), "docs/LANGUAGE.md's row selector table has no row for '\(keyword)'")
        }
    }

    /// The JSON Schema's row selector mapping offers exactly the registered keys (and a pin's, `anchor` too).
    @Test func theSchemaListsEveryKey() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(PolicySchema.json.utf8)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let keywords = Set(RowSelectorRegistry.keys.map { $0.keyword })
        for (name, extra) in [("rowSelector", [String]()), ("pinSelector", ["anchor"])] {
            let def = try #require(defs[name] as? [String: Any])
            let mapping = try #require((def["oneOf"] as? [[String: Any]])?.first { $0["type"] as? String == "object" })
            let properties = try #require(mapping["properties"] as? [String: Any])
            #expect(Set(properties.keys) == keywords.union(extra), "\(name)")
        }
    }

    /// On random tables and selectors, for every row: the selector built from its keys' own
    /// tests, the analysis's symbolic meaning with every attribute chosen, and the reference
    /// evaluator agree on whether it matches and whether through the end.
    @Test(arguments: 0..<2)
    func concreteSymbolicAndReferenceMeaningsAgree(chunk: Int) {
        var gen = RandomPolicies(seed: 0x5E1EC7 + UInt64(chunk))
        var rows = 0, matched = 0
        for _ in 0..<300 {
            let selector = gen.rowSelector(), table = gen.table()
            let reference = ReferenceEvaluator(policy: Policy(name: "keys"), table: table)
            let test = selector.bind(table)
            let tagNames = Array(Set(table.sections.flatMap { $0.rows.flatMap(\.tags) })).sorted()
            for (u, section) in table.sections.enumerated() {
                let site = SectionSite(section: section, index: u, count: table.sections.count)
                for (k, row) in section.rows.enumerated() {
                    let n = section.rows.count
                    let concrete = withUnsafePointer(to: row) { test(u, k, n, $0) }
                    let symbolic = RowSite(section: site, k: k, n: n).match(selector, PartialRow(row, tagNames: tagNames))
                    let expected = reference.selects(selector, Position(section: u, row: k))
                    #expect(concrete.matches == expected.0 && concrete.fromEnd == (expected.0 && expected.1), "bind: \(selector.flowYAML) at \(u).\(k) of \(table)")
                    #expect(symbolic.matches == Tri(expected.0) && symbolic.fromEnd == Tri(expected.0 && expected.1), "meaning: \(selector.flowYAML) at \(u).\(k)")
                    rows += 1
                    if expected.0 { matched += 1 }
                }
            }
        }
        #expect(rows > 1_000 && matched > 100 && matched < rows)
    }

    /// Every key the random policies draw is seen, in a mapping and under `not`.
    @Test func theRandomPoliciesDrawEveryKey() {
        var gen = RandomPolicies(seed: 0x5E1EC8)
        var seen = Set<String>()
        func visit(_ s: RowSelector) {
            for item in s.alternatives ?? [] { visit(item) }
            for key in s.keys { seen.insert(type(of: key).keyword) }
            if let not = s.not { visit(not) }
        }
        for _ in 0..<500 { visit(gen.rowSelector()) }
        #expect(seen == Set(RowSelectorRegistry.keys.map { $0.keyword }))
    }

    // MARK: Section selector keys

    @Test func everySectionKeyHasAReferenceMeaningARandomGeneratorAndASchema() throws {
        for key in SectionFilterRegistry.keys {
            #expect(key is any ReferenceSectionKeyMeaning.Type, "\(key.keyword): conform its type to ReferenceSectionKeyMeaning")
            #expect(key is any RandomSectionKey.Type, "\(key.keyword): conform its type to RandomSectionKey")
        }
        let keywords = SectionFilterRegistry.keys.map { $0.keyword }
        #expect(Set(keywords).count == keywords.count)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(PolicySchema.json.utf8)) as? [String: Any])
        let filter = try #require((schema["$defs"] as? [String: Any])?["sectionFilter"] as? [String: Any])
        let properties = try #require(filter["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(keywords))
    }

    /// On random tables and section selectors, for every section: the engine's per-table
    /// selection, the analysis's meaning on the section's site and the reference agree.
    @Test func sectionKeysAgreeWithTheReference() {
        var gen = RandomPolicies(seed: 0x5EC7)
        var sections = 0, selected = 0
        for _ in 0..<400 {
            let selector = gen.sectionSelector(), table = gen.table()
            let reference = ReferenceEvaluator(policy: Policy(name: "keys"), table: table).sections(selector).selected
            let engine = RowSelector(section: selector).bind(table)
            for (u, section) in table.sections.enumerated() {
                let site = SectionSite(section: section, index: u, count: table.sections.count)
                let expected = reference.contains(u)
                #expect(site.selected(by: selector) == expected, "meaning: \(selector.flowYAML) at \(u) of \(table)")
                if let row = section.rows.first {
                    #expect(withUnsafePointer(to: row) { engine(u, 0, section.rows.count, $0).matches } == expected, "bind: \(selector.flowYAML) at \(u)")
                }
                sections += 1
                if expected { selected += 1 }
            }
        }
        #expect(sections > 500 && selected > 100 && selected < sections)
    }
}
