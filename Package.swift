// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "reorder-policy",
    products: [
        .library(name: "ReorderPolicy", targets: ["ReorderPolicy"]),
        .library(name: "ReorderEngine", targets: ["ReorderEngine"]),
        // `reorder-policy lsp`'s server, for the fuzzer and for tools that embed it.
        .library(name: "PolicyLanguageServer", targets: ["PolicyLanguageServer", "JSONRPC"]),
        .executable(name: "reorder-policy", targets: ["reorder-policy"]),
        // The decision server (SPEC §9) is its own product, built with the `Server` trait:
        // `swift build --traits Server --product reorder-policy-server`. Building the CLI or
        // the libraries never builds the web stack.
        .executable(name: "reorder-policy-server", targets: ["reorder-policy-server"]),
        // `swift package lint-reorder-policies` in a package that depends on this one.
        .plugin(name: "LintReorderPolicies", targets: ["LintReorderPolicies"]),
    ],
    // The server's web stack (Hummingbird, NIO, swift-crypto and the rest below) is behind the
    // `Server` trait, off by default: a package that depends on this one for ReorderPolicy or
    // ReorderEngine resolves none of it (SwiftPM prunes the dependencies of disabled traits),
    // so the server's pins never clash with a service's own NIO. `swift test` without the trait
    // runs every test but the server's; `swift test --traits Server` runs those too
    // (README, "Tests").
    traits: [
        .trait(name: "Server", description: "The decision server, reorder-policy-server (SPEC §9): Hummingbird, SwiftNIO, swift-crypto."),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Documentation only: `swift package generate-documentation` (.ci/run builds the catalogs).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // Used only by the server targets below.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    ],
    targets: [
        // The only target that sees libyaml's C API is SpannedYAML.
        .systemLibrary(
            name: "CLibYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        .target(name: "SpannedYAML", dependencies: ["CLibYAML"]),
        // Standard library only: a service can embed it without YAML or Foundation.
        .target(name: "ReorderEngine"),
        .target(name: "ReorderPolicy", dependencies: ["SpannedYAML", "ReorderEngine"]),
        // JSON-RPC 2.0 framing and message shapes (LSP's base protocol), Foundation only.
        .target(name: "JSONRPC"),
        // `reorder-policy lsp` (docs/EDITORS.md): the editor's features from lint, fmt and the loader.
        .target(name: "PolicyLanguageServer", dependencies: ["JSONRPC", "ReorderPolicy", "ReorderEngine", "SpannedYAML"]),
        .executableTarget(
            name: "reorder-policy",
            dependencies: [
                "ReorderPolicy",
                "SpannedYAML",
                "PolicyLanguageServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // HTTP plumbing only: request decoding and answers come from ReorderPolicy's DecisionService.
        // Its sources compile only with the `Server` trait (`#if Server`); without it the module
        // is empty and nothing of the web stack is resolved or built.
        .target(
            name: "ReorderServer",
            dependencies: [
                "ReorderPolicy",
                "SpannedYAML",
            ] + server([
                ("Hummingbird", "hummingbird"),
                ("ServiceLifecycle", "swift-service-lifecycle"),
                ("Logging", "swift-log"),
                ("Metrics", "swift-metrics"),
                ("CoreMetrics", "swift-metrics"),
                ("Prometheus", "swift-prometheus"),
                ("NIOCore", "swift-nio"),
                ("NIOHTTPTypes", "swift-nio-extras"),
                ("NIOHTTPTypesHTTP1", "swift-nio-extras"),
                ("NIOHTTP1", "swift-nio"),
                ("HTTPTypes", "swift-http-types"),
                ("Crypto", "swift-crypto"),
            ])
        ),
        // The server's one C call: the allocator keeps freed memory for the next request.
        .target(name: "CServerSupport"),
        .executableTarget(
            name: "reorder-policy-server",
            dependencies: [
                "ReorderServer",
                "CServerSupport",
                "ReorderPolicy",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + server([("Logging", "swift-log")])
        ),
        .plugin(
            name: "LintReorderPolicies",
            capability: .command(
                intent: .custom(verb: "lint-reorder-policies", description: "Lint the reorder policies of this package with reorder-policy lint."),
                permissions: []
            ),
            dependencies: ["reorder-policy"]
        ),
        .testTarget(name: "SpannedYAMLTests", dependencies: ["SpannedYAML"]),
        // The engine against a brute-force reference; the round trip through the loader needs ReorderPolicy.
        .testTarget(name: "ReorderEngineTests", dependencies: ["ReorderEngine", "ReorderPolicy"]),
        .testTarget(name: "ReorderPolicyTests", dependencies: ["ReorderPolicy", "SpannedYAML"]),
        .testTarget(name: "LanguageServerTests", dependencies: ["JSONRPC", "PolicyLanguageServer"]),
        // Runs the built executable end to end; depending on it makes `swift test` build it.
        .testTarget(name: "CLITests", dependencies: ["ReorderPolicy", "ReorderEngine", "reorder-policy"], exclude: ["Golden", "Fixtures"]),
        // Starts the built server on a free loopback port and talks HTTP to it. With the
        // `Server` trait only (`#if Server`): `swift test --traits Server`.
        .testTarget(
            name: "ServerTests",
            dependencies: ["reorder-policy-server", "reorder-policy", "ReorderServer", "ReorderPolicy", "CServerSupport"]
                + server([("Crypto", "swift-crypto")]),
            exclude: ["validate_openapi.py", "browser_playground.py"]),
    ],
    swiftLanguageModes: [.v6]
)

/// Dependencies of the server's targets: used only with the `Server` trait, so that SwiftPM
/// resolves and builds them only then.
func server(_ products: [(name: String, package: String)]) -> [Target.Dependency] {
    products.map { .product(name: $0.name, package: $0.package, condition: .when(traits: ["Server"])) }
}
