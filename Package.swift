// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "reorder-policy",
    products: [
        .library(name: "ReorderPolicy", targets: ["ReorderPolicy"]),
        .library(name: "ReorderEngine", targets: ["ReorderEngine"]),
        .executable(name: "reorder-policy", targets: ["reorder-policy"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "SpannedYAMLTests", dependencies: ["SpannedYAML"]),
        .testTarget(name: "ReorderEngineTests", dependencies: ["ReorderEngine"]),
        .testTarget(name: "ReorderPolicyTests", dependencies: ["ReorderPolicy"]),
        // Runs the built executable end to end; depending on it makes `swift test` build it.
        .testTarget(name: "CLITests", dependencies: ["ReorderPolicy", "reorder-policy"], exclude: ["Golden", "Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
