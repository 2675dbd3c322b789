// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reorder-policy",
    products: [
        .library(name: "ReorderPolicy", targets: ["ReorderPolicy"]),
        .library(name: "ReorderEngine", targets: ["ReorderEngine"]),
        .executable(name: "reorder-policy", targets: ["reorder-policy"]),
        // The decision server (SPEC §9) is its own product: building the CLI or the libraries
        // never builds the web stack.
        .executable(name: "reorder-policy-server", targets: ["reorder-policy-server"]),
        // `swift package lint-reorder-policies` in a package that depends on this one.
        .plugin(name: "LintReorderPolicies", targets: ["LintReorderPolicies"]),
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
        .executableTarget(
            name: "reorder-policy",
            dependencies: [
                "ReorderPolicy",
                "SpannedYAML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // HTTP plumbing only: request decoding and answers come from ReorderPolicy's DecisionService.
        .target(
            name: "ReorderServer",
            dependencies: [
                "ReorderPolicy",
                "SpannedYAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
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
                .product(name: "Logging", package: "swift-log"),
            ]
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
        // Runs the built executable end to end; depending on it makes `swift test` build it.
        .testTarget(name: "CLITests", dependencies: ["ReorderPolicy", "ReorderEngine", "reorder-policy"], exclude: ["Golden", "Fixtures"]),
        // Starts the built server on a free loopback port and talks HTTP to it.
        .testTarget(
            name: "ServerTests",
            dependencies: ["reorder-policy-server", "reorder-policy", "ReorderServer", "ReorderPolicy", "CServerSupport", .product(name: "Crypto", package: "swift-crypto")],
            exclude: ["validate_openapi.py", "browser_playground.py"]),
    ],
    swiftLanguageModes: [.v6]
)
