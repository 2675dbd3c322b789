// swift-tools-version: 6.0
// A package that uses reorder-policy's command plugin, as an app's package would
// (Tests/CLITests/PluginTests.swift runs `swift package lint-reorder-policies` here).
import PackageDescription

let package = Package(
    name: "PluginUser",
    dependencies: [
        .package(name: "reorder-policy", path: "../../../.."),
    ],
    targets: [
        .target(name: "PluginUser", path: "Sources"),
    ]
)
