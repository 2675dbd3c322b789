import Foundation
import JSONRPC
import PolicyLanguageServer
import ReorderPolicy

/// One fuzz input, dispatched on its first byte (so one corpus and one binary reach every
/// entry point):
/// - 0: a policy file: load, compile, bind to a fixed table, decide every move of it;
/// - 1: a table file: load, bind every bundled-like policy, decide every move;
/// - 2: a decision-server body for `check` (read with `JSONDocument`), and 3 for `explain`;
/// - 4: a policy and a table separated by a NUL byte: decide every move and check the engine's
///   own promises (a target is valid and idempotent; a valid proposal is its own target);
/// - 5: a moves file: stream it, decide each move on the fixed table, and check that every item
///   decoded in place (`FlatNode`) equals the same item decoded from the file's tree;
/// - 6: a language server session (`reorder-policy lsp`'s input): frames read with
///   `FrameReader`, each message handled by a `LanguageServer` whose output is dropped.
/// Anything that is not a crash, a hang or a broken promise is fine: bad input must give
/// diagnostics, which is what the loaders are for.
enum Harness {
    static let fixedTable = Table(sections: [
        Section(id: "A", kind: "bucket", tags: ["x"], attributes: ["wip": 3], rows: [Row(id: "a", kind: "header"), Row(id: "b"), Row(id: "c", tags: ["x"])]),
        Section(id: "B", rows: [Row(id: "d", kind: "card")]),
        Section(rows: []),
    ])

    static let policies: [CompiledPolicy] = [
        """
        reorder-policy: 1
        name: fixed
        rules:
          - pin: [ { first: 1, kind: header }, { last: 1, not: { tag: x } } ]
          - capacity: { section: { kind: bucket }, max: { attribute: wip }, min: 1 }
          - keep-order: { tag: x }
          - accept: { section: -1, from: [0, { id: B }], rows: { not: { kind: card } } }
          - keep-in-section: { kind: card }
        section-rules:
          - pin: { first: 1 }
        """,
        "reorder-policy: 1\nname: open\nrules: []\n",
    ].map { PolicyLoader.load(text: $0).compiled()! }

    static func run(_ bytes: [UInt8]) {
        guard let selector = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch selector % 7 {
        case 0:
            let document = PolicyLoader.load(SourceFile(path: "fuzz.yaml", bytes: rest))
            if let compiled = document.compiled() { exercise(compiled.bind(fixedTable)) }
        case 1:
            let (table, _) = TableLoader.load(SourceFile(path: "fuzz.yaml", bytes: rest))
            if let table, rowCount(table) <= 400 { for policy in policies { exercise(policy.bind(table)) } }
        case 2:
            _ = DecisionService.check(body: rest, policy: policies[0], policyHash: "fuzz", logging: true)
        case 3:
            _ = DecisionService.explain(body: rest, policy: policies[0], policyHash: "fuzz", logging: true)
        case 5:
            movesFile(rest)
        case 6:
            nonisolated(unsafe) var input: Data? = Data(rest)
            var reader = FrameReader(read: { defer { input = nil }; return input })
            _ = LanguageServer(writer: FrameWriter(write: { _ in }), version: "fuzz").serve(&reader)
        default:
            let parts = rest.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { return }
            let document = PolicyLoader.load(SourceFile(path: "p.yaml", bytes: Array(parts[0])))
            let (table, _) = TableLoader.load(SourceFile(path: "t.yaml", bytes: Array(parts[1])))
            if let compiled = document.compiled(), let table, rowCount(table) <= 400 { exercise(compiled.bind(table)) }
        }
    }

    /// Streams a moves file; when the whole file reads as a tree without a problem, each
    /// streamed item must equal the tree's item decoded by the same decoder.
    static func movesFile(_ bytes: [UInt8]) {
        let bound = policies[0].bind(fixedTable)
        var streamed: [MoveItem] = []
        let errors = MovesFile.stream(SourceFile(path: "m.yaml", bytes: bytes)) { item in
            if case .move(let move) = item { _ = try? bound.decide(move) }
            if streamed.count < 1_000 { streamed.append(item) }
        }
        let tree = YAMLDocument.parse(bytes, file: "m.yaml", limits: .stream)
        guard errors.isEmpty, tree.diagnostics.isEmpty, let items = tree.root?.sequence, items.count == streamed.count else { return }
        for (item, node) in zip(streamed, items) {
            let expected = MovesFile.item(node)
            switch (item, expected) {
            case (.move(let a), .move(let b)) where a == b: continue
            case (.offsets(let f1, let t1, let s1), .offsets(let f2, let t2, let s2)) where f1 == f2 && t1 == t2 && s1 == s2: continue
            case (.invalid(let g1, let e1), .invalid(let g2, let e2)) where g1 == g2 && e1 == e2: continue
            default: fatalError("a moves item decoded in place differs from its tree: \(item) against \(expected)")
            }
        }
    }

    static func rowCount(_ table: Table) -> Int { table.sections.reduce(0) { $0 + $1.rows.count } }

    /// Decides every row move and section move of the bound table and checks the promises.
    static func exercise(_ bound: BoundPolicy) {
        let table = bound.table
        for s in table.sections.indices {
            for i in table.sections[s].rows.indices {
                let from = Position(section: s, row: i)
                for t in table.sections.indices {
                    let slots = t == s ? table.sections[t].rows.count : table.sections[t].rows.count + 1
                    for j in 0..<slots {
                        let to = Position(section: t, row: j)
                        guard let decision = try? bound.decide(.row(from: from, to: to)) else {
                            fatalError("a move in range was refused: \(from) → \(to)")
                        }
                        guard bound.canMove(from) else { continue }
                        let target = bound.target(from: from, proposed: to)
                        if case .row(let p) = decision.target, p != target { fatalError("decide and target disagree at \(from) → \(to)") }
                        if bound.target(from: from, proposed: target) != target, bound.compiled.policy.retarget == .nearest {
                            fatalError("target \(target) is not idempotent for \(from) → \(to)")
                        }
                    }
                }
                _ = try? bound.explain(.row(from: from, to: from))
            }
        }
        for a in table.sections.indices {
            for b in table.sections.indices { _ = try? bound.decide(.section(from: a, to: b)) }
        }
    }
}

#if FUZZING
/// The entry point libFuzzer calls for each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    Harness.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver (the binary is built with `-sanitize=fuzzer`; see Fuzz/README.md).
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif

@main
struct FuzzLoaders {
    /// With libFuzzer: fuzz (its flags, e.g. `-max_total_time=20 corpus/`). Without: replay the
    /// files given as arguments (a corpus, or a crash to reproduce) once each.
    static func main() {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
        exit(status)
        #else
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let file = try? SourceFile.read(path, maxBytes: 1 << 24) else { continue }
            Harness.run(file.bytes)
            count += 1
        }
        print("replayed \(count) inputs")
        #endif
    }
}

#if canImport(Glibc)
import Glibc
#endif
