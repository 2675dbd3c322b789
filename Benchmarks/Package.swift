// swift-tools-version: 6.1
// Benchmarks live in their own package so the main package stays lean.
// Run: cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "ReorderBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "reorder-policy", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The baseline for batch checking: libyaml alone, in C, reading every event of a file.
        .target(name: "YAMLParseBaseline", linkerSettings: [.linkedLibrary("yaml")]),
        .executableTarget(
            name: "ReorderBenchmarks",
            dependencies: [
                .product(name: "ReorderPolicy", package: "reorder-policy"),
                .product(name: "Benchmark", package: "benchmark"),
                "YAMLParseBaseline",
            ],
            path: "Benchmarks/ReorderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
