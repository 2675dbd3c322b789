import Testing
import ReorderEngine

@Suite struct PersistencePlanTests {
    /// Applies `writes` to `keys`, moves the rows, and returns each section's keys in the new order.
    func keysAfter<K>(_ keys: [[K]], _ writes: [PersistencePlan.Write<K>], from: Position, to: Position) -> [[K]] {
        var updated = keys
        for w in writes { updated[w.position.section][w.position.row] = w.key }
        var grid = updated
        let row = grid[from.section].remove(at: from.row)
        grid[to.section].insert(row, at: to.row)
        return grid
    }

    func randomKeys(_ gen: inout RandomPolicies, dense: Bool) -> [[Int]] {
        (0..<gen.int(1...3)).map { _ in
            var k = gen.int(-3...3)
            return (0..<gen.int(0...6)).map { _ in
                k += dense ? 1 : gen.int(1...3)
                return k
            }
        }
    }

    @Test(arguments: [true, false])
    func integerWritesReproduceTheNewOrder(dense: Bool) throws {
        var gen = RandomPolicies(seed: dense ? 1 : 2)
        for _ in 0..<2000 {
            let keys = randomKeys(&gen, dense: dense)
            let table = Table(sections: keys.map { Section(rowIDs: $0.map(String.init)) })
            guard let (from, to) = gen.rowMove(in: table) else { continue }
            let writes = try PersistencePlan.integerWrites(keys: keys, from: from, to: to)
            for section in keysAfter(keys, writes, from: from, to: to) {
                #expect(zip(section, section.dropFirst()).allSatisfy { $0 < $1 }, "\(keys) \(from)->\(to) \(writes)")
            }
            // Only the rows between source and destination are touched within a section.
            if from.section == to.section {
                let lo = min(from.row, to.row), hi = max(from.row, to.row)
                #expect(writes.allSatisfy { $0.position.section == from.section && (lo...hi).contains($0.position.row) })
            }
        }
    }

    @Test func aGapMeansOneWrite() throws {
        let writes = try PersistencePlan.integerWrites(keys: [[10, 20, 30, 40]], from: Position(section: 0, row: 3), to: Position(section: 0, row: 1))
        #expect(writes == [PersistencePlan.Write(position: Position(section: 0, row: 3), key: 15)])
        let dense = try PersistencePlan.integerWrites(keys: [[0, 1, 2, 3]], from: Position(section: 0, row: 0), to: Position(section: 0, row: 2))
        #expect(dense.count == 3)
    }

    @Test func fractionalKeysNeedOneWriteAndRebalanceWhenTooLong() throws {
        var gen = RandomPolicies(seed: 9)
        for _ in 0..<1000 {
            let n = gen.int(1...6)
            let keys = [PersistencePlan.evenlySpaced(n), PersistencePlan.evenlySpaced(gen.int(0...3))]
            let table = Table(sections: keys.map { Section(rowIDs: $0) })
            guard let (from, to) = gen.rowMove(in: table) else { continue }
            let plan = try PersistencePlan.fractionalWrites(keys: keys, from: from, to: to)
            #expect(plan.writes.count <= 1 && !plan.rebalanced)
            for section in keysAfter(keys, plan.writes, from: from, to: to) {
                #expect(zip(section, section.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
            }
        }
        // Repeatedly dropping a row between the same two rows grows keys until the bound forces a rebalance.
        var keys = [["a", "b", "c"]]
        var rebalanced = false
        for _ in 0..<200 where !rebalanced {
            let plan = try PersistencePlan.fractionalWrites(keys: keys, from: Position(section: 0, row: 2), to: Position(section: 0, row: 1), maxLength: 8)
            keys = keysAfter(keys, plan.writes, from: Position(section: 0, row: 2), to: Position(section: 0, row: 1))
            rebalanced = plan.rebalanced
            #expect(keys[0].allSatisfy { $0.utf8.count <= 8 })
            #expect(zip(keys[0], keys[0].dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        }
        #expect(rebalanced)
    }

    @Test func keysBetweenAreStrictlyBetween() {
        #expect(PersistencePlan.key(between: nil, and: nil) != nil)
        #expect(PersistencePlan.key(between: "a", and: "b") == "aV")
        #expect(PersistencePlan.key(between: "a", and: "a0") == nil)
        #expect(throws: PersistencePlan.KeyError.self) {
            try PersistencePlan.integerWrites(keys: [[2, 1]], from: Position(section: 0, row: 0), to: Position(section: 0, row: 1))
        }
    }
}
