// swift-tools-version: 6.1
// Benchmarks live in their own package so the main package stays lean.
// Run: cd Benchmarks && swift package benchmark
import PackageDescription

let package = Package(
    name: "ReorderBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The server benchmarks build reorder-policy-server, which needs the `Server` trait.
        .package(name: "reorder-policy", path: "..", traits: ["Server"]),
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
        // The growth and hang limits of every path that reads a large input, in release
        // (issue #59): `swift run -c release SizeGuards`, run by .ci/run.
        .executableTarget(
            name: "SizeGuards",
            dependencies: [.product(name: "ReorderPolicy", package: "reorder-policy")]
        ),
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
