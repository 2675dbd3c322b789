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
        // Said after the findings, not above them (issue 63): SwiftPM shows a plugin's output
        // when it ends, so the plugin writes the verdict last instead of throwing it.
        if let verdict = broken.1.range(of: "reorder-policy lint found errors"), let finding = broken.1.range(of: "error[") {
            #expect(finding.lowerBound < verdict.lowerBound, "\(broken.1)")
        }
    }
}

/// A service that embeds the library resolves none of the server's web stack (issue #63): the
/// server's dependencies are behind the `Server` trait, which a dependent package does not
/// enable, and SwiftPM prunes them. A package that depends on this one for ReorderPolicy is
/// written to a scratch folder and resolved; its Package.resolved must list no NIO, no
/// Hummingbird and no swift-crypto.
@Suite struct EmbeddingTests {
    /// Hang guard: two resolutions take about 15 s (the second pins the web stack); the limit
    /// is 5 minutes, 20 times that.
    @Test(.timeLimit(.minutes(5))) func anEmbeddingPackageResolvesNoServerStack() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("reorder-policy-embedder-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("Sources/Service"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try """
            // swift-tools-version: 6.1
            import PackageDescription
            let package = Package(
                name: "Service",
                dependencies: [.package(name: "reorder-policy", path: "\(CLI.packageRoot.path)")],
                targets: [.executableTarget(name: "Service", dependencies: [.product(name: "ReorderPolicy", package: "reorder-policy")])]
            )
            """.write(to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import ReorderPolicy\nprint(PolicyLoader.self)\n".write(to: dir.appendingPathComponent("Sources/Service/main.swift"), atomically: true, encoding: .utf8)
        let resolved = try CLI.program(["swift", "package", "--scratch-path", dir.appendingPathComponent(".build").path, "resolve"], in: dir)
        #expect(resolved.status == 0, "\(resolved.output)")
        // No Package.resolved at all means nothing remote was pinned: that passes too. (Today it
        // pins swift-argument-parser alone, which the CLI target of this package uses.)
        let pins = (try? String(contentsOf: dir.appendingPathComponent("Package.resolved"), encoding: .utf8)) ?? ""
        let identities = pins.split(separator: "\n").filter { $0.contains("\"identity\"") }
            .map { $0.split(separator: "\"").dropFirst(3).first.map(String.init) ?? "" }
        for server in ["swift-nio", "swift-nio-extras", "swift-nio-ssl", "hummingbird", "swift-crypto", "async-http-client", "swift-service-lifecycle", "swift-prometheus"] {
            #expect(!identities.contains(server), "an embedding package pins \(server): \(identities)")
        }
        // And the control: the same package with the trait on does pin the web stack, so the
        // check above reads a real Package.resolved.
        let withServer = try String(contentsOf: dir.appendingPathComponent("Package.swift"), encoding: .utf8)
            .replacingOccurrences(of: "path: \"\(CLI.packageRoot.path)\")", with: "path: \"\(CLI.packageRoot.path)\", traits: [\"Server\"])")
        try withServer.write(to: dir.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let resolvedWith = try CLI.program(["swift", "package", "--scratch-path", dir.appendingPathComponent(".build").path, "resolve"], in: dir)
        #expect(resolvedWith.status == 0, "\(resolvedWith.output)")
        let pinsWith = (try? String(contentsOf: dir.appendingPathComponent("Package.resolved"), encoding: .utf8)) ?? ""
        #expect(pinsWith.contains("\"identity\" : \"swift-nio\""), "with the Server trait the web stack is pinned: \(pinsWith.prefix(400))")
    }
}
