import Foundation
import Testing
@testable import ReorderEngine

/// `BoundPolicy.isolatedCopy()` (a binding per thread, for `check --moves` in pieces) compiles
/// the policy again and binds it to a copy of the table whose strings have storage of their
/// own. It must decide every move as the binding it copies, and share no string storage.
@Suite struct IsolatedCopyTests {
    @Test("a copy decides every row and section move of 300 random policies and tables as the binding it copies")
    func copiesDecideAsTheOriginal() throws {
        var gen = RandomPolicies(seed: 0x150C)
        var moves = 0, refused = 0
        for _ in 0..<300 {
            let policy = gen.policy(), table = gen.table()
            let bound = try CompiledPolicy(policy).bind(table)
            let copy = try #require(bound.isolatedCopy())
            #expect(copy.table == table)
            for (s, section) in table.sections.enumerated() {
                for i in section.rows.indices {
                    for (t, target) in table.sections.enumerated() {
                        for j in 0...target.rows.count {
                            let move = Move.row(from: Position(section: s, row: i), to: Position(section: t, row: j))
                            let a = Result { () throws(MoveError) in try bound.decide(move) }
                            let b = Result { () throws(MoveError) in try copy.decide(move) }
                            #expect(a == b, "\(move)")
                            moves += 1
                            if case .success(let d) = a, d.kind != .allowed { refused += 1 }
                        }
                    }
                }
                for t in table.sections.indices {
                    let move = Move.section(from: s, to: t)
                    #expect(Result { () throws(MoveError) in try bound.decide(move) } == Result { () throws(MoveError) in try copy.decide(move) })
                }
            }
        }
        #expect(moves > 10_000 && refused > 1_000, "\(moves) moves, \(refused) refused")
    }

    @Test("the copy's table shares no string storage with the original")
    func stringsAreCopied() throws {
        let long = String(repeating: "a long row id ", count: 4)  // past the 15 bytes kept inline
        let table = Table(sections: [Section(id: long + "S", kind: long + "K", tags: [long + "T"], attributes: [long + "A": 1],
                                             rows: [Row(id: long, kind: long + "k", tags: [long + "t"])])])
        let bound = try CompiledPolicy(Policy(name: "p", rules: [])).bind(table)
        let copy = try #require(bound.isolatedCopy())
        func storage(_ s: String) -> UnsafeRawPointer? { var s = s; return s.withUTF8 { UnsafeRawPointer($0.baseAddress) } }
        let a = bound.table.sections[0], b = copy.table.sections[0]
        #expect(a == b)
        #expect(storage(a.rows[0].id) != storage(b.rows[0].id))
        #expect(storage(a.id!) != storage(b.id!))
        #expect(storage(a.rows[0].tags[0]) != storage(b.rows[0].tags[0]))
    }

    @Test("a decision with no violation keeps its own policy's placeholder: a copy's decisions share no object with the original's")
    func placeholdersArePerPolicy() throws {
        let table = Table(sections: [Section(id: "S", rowIDs: ["a", "b"]), Section(id: "T", rowIDs: ["c"])])
        let bound = try CompiledPolicy(Policy(name: "p", rules: [])).bind(table)
        let copy = try #require(bound.isolatedCopy())
        let row = Move.row(from: Position(section: 0, row: 0), to: Position(section: 1, row: 0))
        let section = Move.section(from: 0, to: 1)
        for move in [row, section] {
            let a = try bound.decide(move), b = try copy.decide(move)
            #expect(a.kind == .allowed && a == b && a == Decision(move: move, kind: .allowed, target: a.target, violations: []))
            // The placeholders: one per compiled policy, none the shared one of the public initializer.
            let mine = a.firstViolation.ruleReference, theirs = b.firstViolation.ruleReference
            #expect(mine !== theirs)
            #expect(mine !== Violation.placeholder.ruleReference && theirs !== Violation.placeholder.ruleReference)
        }
    }
}
