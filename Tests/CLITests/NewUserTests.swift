import Foundation
import Testing

/// What a new user trips on (issue 27): each test fails without its fix.
@Suite struct NewUserTests {
    @Test("test --format json on a missing file names it in its diagnostics, exit 2")
    func testJSONReportsAMissingFile() throws {
        let result = try CLI.run(["test", "--format", "json", "no/such/policy.yaml"])
        #expect(result.status == 2)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let diagnostics = json?["diagnostics"] as? [[String: Any]] ?? []
        #expect(diagnostics.count == 1, "\(result.stdout)")
        #expect(diagnostics.first?["code"] as? String == "unreadable")
        #expect(diagnostics.first?["file"] as? String == "no/such/policy.yaml")
        let fine = try CLI.run(["test", "--format", "json", "policies/kanban.yaml"])
        #expect(fine.status == 0)
        #expect(fine.stdout.contains("\"diagnostics\": [],"))
    }
}
