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
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        // The baseline for batch checking: libyaml alone, in C, reading every event of a file.
        .target(name: "YAMLParseBaseline", linkerSettings: [.linkedLibrary("yaml")]),
        // The baseline for streamed batch checking (moves-memory.sh): libyaml reading a file.
        .executableTarget(name: "YAMLParseFile", linkerSettings: [.linkedLibrary("yaml")]),
        // The baseline for the server load test (server-load.sh): the HTTP stack alone.
        .executableTarget(name: "BareServer", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
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
