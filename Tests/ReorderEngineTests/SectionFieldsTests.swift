import Foundation
import Testing
import ReorderEngine
@testable import ReorderPolicy

/// A section's wire fields are described once (`SectionFields`): what the writers write, the
/// decoder reads back, and the JSON Schema lists exactly the registered fields.
@Suite struct SectionFieldsTests {
    @Test func tablesWrittenAsJSONOrFlowYAMLReadBackEqual() {
        var gen = RandomPolicies(seed: 0x5EC7)
        for _ in 0..<300 {
            let table = gen.table()
            var w = JSONWriter()
            TableText.json(table, into: &w)
            for text in [w.text, TableText.flow(table)] {
                let (read, diagnostics) = TableLoader.load(text: text)
                #expect(diagnostics.isEmpty, "\(text): \(diagnostics)")
                #expect(read == table, "\(text)")
            }
        }
    }

    @Test func theSchemaListsEverySectionField() throws {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(PolicySchema.json.utf8)) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let table = try #require(defs["table"] as? [String: Any])
        let sections = try #require((table["properties"] as? [String: Any])?["sections"] as? [String: Any])
        let section = try #require(sections["items"] as? [String: Any])
        let properties = try #require(section["properties"] as? [String: Any])
        #expect(Set(properties.keys) == Set(SectionFields.keys))
    }

    /// Every stored property of the model's `Section` has its wire description (and `rows`):
    /// a field added to the model alone fails here.
    @Test func everySectionPropertyIsAWireField() {
        let properties = Mirror(reflecting: Section(rows: [])).children.compactMap(\.label)
        #expect(Set(properties) == Set(SectionFields.keys))
    }
}
