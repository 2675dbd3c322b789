// swift-tools-version: 6.0
// Coverage-guided fuzzing of the loaders and the engine (libFuzzer), in its own package so
// that sanitizer flags never touch the main build. See Fuzz/README.md.
import PackageDescription

let package = Package(
    name: "ReorderFuzz",
    dependencies: [.package(name: "reorder-policy", path: "..")],
    targets: [
        .executableTarget(
            name: "FuzzLoaders",
            dependencies: [
                .product(name: "ReorderPolicy", package: "reorder-policy"),
                .product(name: "PolicyLanguageServer", package: "reorder-policy"),
            ],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
