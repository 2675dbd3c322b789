import Benchmark
import Foundation
import ReorderPolicy
import YAMLParseBaseline

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2))

    // MARK: target() against the hand-written baseline, side by side.

    let compiled = try! CompiledPolicy(Fixtures.listingPolicy)
    do {
        let table = Fixtures.table(sections: 10, rows: 100)
        let bound = compiled.bind(table)
        let counts = table.sections.map(\.rows.count)
        let proposals = Fixtures.proposals(sections: 10, rows: 100)
        // The two must agree, or the comparison means nothing.
        for (from, to) in proposals where bound.canMove(from) {
            precondition(bound.target(from: from, proposed: to) == Fixtures.handWrittenTarget(from: from, proposed: to, rowCounts: counts))
        }
        Benchmark("target: hand-written baseline (4096 calls)", configuration: .init(scalingFactor: .one)) { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(Fixtures.handWrittenTarget(from: from, proposed: to, rowCounts: counts)) }
            }
        }
        Benchmark("target: engine (4096 calls)", configuration: .init(scalingFactor: .one)) { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(bound.target(from: from, proposed: to)) }
            }
        }
    }

    // MARK: keep-among and retarget: source-section (SPEC §13) against the hand-written delegate.

    do {
        let among = try! CompiledPolicy(Fixtures.amongPolicy)
        let table = Fixtures.chatsTable(sections: 10, rows: 100, pinned: 10)
        let bound = among.bind(table)
        let counts = table.sections.map(\.rows.count), pinned = table.sections.map { _ in 10 }
        let proposals = Fixtures.proposals(sections: 10, rows: 100)
        for (from, to) in proposals {
            precondition(bound.target(from: from, proposed: to) == Fixtures.handWrittenAmongTarget(from: from, proposed: to, rowCounts: counts, pinnedCounts: pinned))
        }
        Benchmark("target keep-among: hand-written baseline (4096 calls)", configuration: .init(scalingFactor: .one)) { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(Fixtures.handWrittenAmongTarget(from: from, proposed: to, rowCounts: counts, pinnedCounts: pinned)) }
            }
        }
        Benchmark("target keep-among: engine (4096 calls)", configuration: .init(scalingFactor: .one)) { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(bound.target(from: from, proposed: to)) }
            }
        }
    }

    // MARK: Per-call cost as tables grow.

    for rows in [10, 1_000, 100_000, 1_000_000] {
        let bound = compiled.bind(Fixtures.table(sections: 1, rows: rows))
        let proposals = Fixtures.proposals(sections: 1, rows: rows)
        Benchmark("target: 1 section x \(rows) rows (4096 calls)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(bound.target(from: from, proposed: to)) }
            }
        }
    }
    let board = try! CompiledPolicy(Fixtures.boardPolicy)
    for sections in [1, 100, 10_000] {
        let table = Fixtures.table(sections: sections, rows: 10)
        let proposals = Fixtures.proposals(sections: sections, rows: 10, crossSection: 0.5)
        let listing = compiled.bind(table), cross = board.bind(table)
        Benchmark("target: \(sections) sections x 10 rows, listing (4096 calls)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(listing.target(from: from, proposed: to)) }
            }
        }
        Benchmark("target: \(sections) sections x 10 rows, board (4096 calls)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(cross.target(from: from, proposed: to)) }
            }
        }
    }

    // MARK: Binding.

    for (sections, rows) in [(1, 1_000_000), (10_000, 100)] {
        let table = Fixtures.table(sections: sections, rows: rows)
        Benchmark("bind: \(sections) sections x \(rows) rows", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(compiled.bind(table)) }
        }
        Benchmark("bind (board): \(sections) sections x \(rows) rows", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(board.bind(table)) }
        }
    }

    // MARK: SPEC §8: section selectors by kind, tag and attribute, a `not` row selector, and
    // attribute bounds cost per section (or row) at bind, never per move. The same policy
    // written with index lists and numbers is the comparison; both must decide alike.

    for sections in [100, 10_000] {
        let rows = 10
        let table = Fixtures.kanbanTable(sections: sections, rows: rows)
        let byData = try! CompiledPolicy(Fixtures.kanbanPolicy(byData: true, sections: sections, rows: rows))
        let byIndex = try! CompiledPolicy(Fixtures.kanbanPolicy(byData: false, sections: sections, rows: rows))
        let proposals = Fixtures.proposals(sections: sections, rows: rows, crossSection: 0.5)
        let a = byData.bind(table), b = byIndex.bind(table)
        for (from, to) in proposals {
            precondition(a.canMove(from) == b.canMove(from) && a.target(from: from, proposed: to) == b.target(from: from, proposed: to))
        }
        Benchmark("bind (kanban, by kind/tag/attribute): \(sections) sections x \(rows) rows", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(byData.bind(table)) }
        }
        Benchmark("bind (kanban, by index lists): \(sections) sections x \(rows) rows", configuration: .init(maxIterations: 50)) { benchmark in
            for _ in benchmark.scaledIterations { blackHole(byIndex.bind(table)) }
        }
        Benchmark("target (kanban, by kind/tag/attribute): \(sections) sections (4096 calls)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(a.target(from: from, proposed: to)) }
            }
        }
        Benchmark("target (kanban, by index lists): \(sections) sections (4096 calls)") { benchmark in
            for _ in benchmark.scaledIterations {
                for (from, to) in proposals { blackHole(b.target(from: from, proposed: to)) }
            }
        }
    }

    // MARK: check --moves on 1,000,000 moves against libyaml parsing the same file.

    let path = Fixtures.movesFile(count: 1_000_000)
    let source = try! SourceFile.read(path, maxBytes: Int.max)
    let policy = PolicyLoader.load(text: """
        reorder-policy: 1
        name: listing
        rules:
          - pin: { first: 1 }
            id: header
          - keep-in-section: all
            id: own-section
          - reserve: { last: 1 }
            id: add-row
        """, path: "listing.yaml").compiled()!
    let batchTable = Fixtures.table(sections: 10, rows: 100)
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("reorder-bench-out.json").path
    let slow = Benchmark.Configuration(metrics: [.wallClock, .cpuTotal], maxDuration: .seconds(60), maxIterations: 5)
    Benchmark("libyaml parse only: 1M moves", configuration: slow) { benchmark in
        for _ in benchmark.scaledIterations {
            let events = source.bytes.withUnsafeBufferPointer { yaml_parse_baseline_count_events($0.baseAddress, $0.count) }
            precondition(events > 12 * 1_000_000)
        }
    }
    Benchmark("check --moves: 1M moves, JSON to a file", configuration: slow) { benchmark in
        for _ in benchmark.scaledIterations {
            let handle = FileHandle(forWritingAtPath: output) ?? {
                _ = FileManager.default.createFile(atPath: output, contents: nil)
                return FileHandle(forWritingAtPath: output)!
            }()
            try? handle.truncate(atOffset: 0)
            var runner = CheckRunner(bound: policy.bind(batchTable), format: .json)
            let problems = BatchPipeline.run(source, runner: &runner) { bytes in handle.write(Data(bytes)) }
            precondition(problems.isEmpty)
            _ = runner.finish()
            runner.withOutput { handle.write(Data($0)) }
            try? handle.close()
        }
    }
}
