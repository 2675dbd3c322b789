import Testing
@testable import ReorderEngine

/// `diff` finds held rows by scanning per-row flags 32, then 8, then 1 at a time: the scan
/// agrees with a plain loop for every start and end, sparse and dense flags, and runs that
/// begin or end at every place of a 32-flag step.
@Suite struct FlagScanTests {
    @Test func theWordScanAgreesWithAPlainLoop() {
        var g = SplitMix64(seed: 0xF1A6)
        for round in 0..<400 {
            let n = Int.random(in: 0...200, using: &g)
            let density = [0.0, 0.005, 0.05, 0.5, 0.95, 1.0][round % 6]
            let flags = (0..<n).map { _ in Double.random(in: 0..<1, using: &g) < density }
            flags.withUnsafeBufferPointer { buffer in
                for _ in 0..<20 {
                    let from = Int.random(in: 0...n, using: &g), to = Int.random(in: from...n, using: &g)
                    for value in [true, false] {
                        let expected = (from..<to).first { flags[$0] == value }
                        #expect(RuleBinder.firstIndex(of: value, in: buffer, from: from, to: to) == expected,
                                "n \(n) from \(from) to \(to) value \(value)")
                    }
                }
            }
        }
    }
}
