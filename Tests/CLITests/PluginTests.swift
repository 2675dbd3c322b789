import Foundation
import Testing

/// The SwiftPM command plugin as an app's package uses it: `swift package lint-reorder-policies`
/// in Fixtures/PluginUser, a package that depends on this one by path. It builds in its own
/// scratch folder (.build-plugin-test), so it never waits for the lock of the running build.
@Suite struct PluginTests {
    static let fixture = CLI.packageRoot.appendingPathComponent("Tests/CLITests/Fixtures/PluginUser")

    static func swiftPackage(_ arguments: [String]) throws -> (Int32, String) {
        try CLI.program(["swift", "package", "--scratch-path", CLI.packageRoot.appendingPathComponent(".build-plugin-test").path] + arguments,
                        in: fixture, environment: ["NO_COLOR": "1"])
    }

    @Test func thePluginLintsThePackageAndFailsOnErrors() throws {
        // The package's own .reorder-policy.yml applies (it is nearer than this repository's).
        let clean = try Self.swiftPackage(["lint-reorder-policies"])
        #expect(clean.0 == 0, "\(clean.1)")
        #expect(clean.1.contains("checked 1 policy file: 0 errors, 0 warnings"), "\(clean.1)")
        // Arguments go to lint as given.
        let json = try Self.swiftPackage(["lint-reorder-policies", "--format", "json", "policies"])
        #expect(json.0 == 0 && json.1.contains("\"summary\": {\"files\": 1, \"errors\": 0, \"warnings\": 0}"), "\(json.1)")
        // A broken policy fails the command, with the diagnostic shown.
        let broken = try Self.swiftPackage(["lint-reorder-policies", "../broken.yaml"])
        #expect(broken.0 != 0, "\(broken.1)")
        #expect(broken.1.contains("error["), "\(broken.1)")
        #expect(broken.1.contains("reorder-policy lint found errors"), "\(broken.1)")
    }
}
