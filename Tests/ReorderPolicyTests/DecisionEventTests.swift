import Foundation
import Testing
import ReorderPolicy

@Suite struct DecisionEventTests {
    let bound: BoundPolicy = {
        let document = PolicyLoader.load(text: "reorder-policy: 1\nname: t\nrules:\n  - pin: { first: 1 }\n    id: header\n")
        return document.compiled()!.bind(Table(sections: [Section(rowIDs: ["H", "a", "b"]), Section(rowIDs: ["c"])]))
    }()

    @Test func eventsRoundTripThroughJSONDecoder() throws {
        let time = Date(timeIntervalSince1970: 1_795_000_000.25)
        let decision = try bound.decide(.row(from: Position(section: 0, row: 2), to: Position(section: 0, row: 0)))
        let event = DecisionEvent(policy: "t", policyHash: DecisionEvent.hash(Array("x".utf8)), decision: decision, time: time)
        #expect(event.decision == "retargeted")
        #expect(event.target == [0, 1])
        #expect(event.rules == ["header"])
        #expect(event.time == "2026-11-18T11:06:40.250Z")
        let decoded = try JSONDecoder().decode(DecisionEvent.self, from: Data(event.jsonLine.utf8))
        #expect(decoded == event)
        // JSONEncoder writes the same record.
        let encoded = try JSONEncoder().encode(event)
        #expect(try JSONDecoder().decode(DecisionEvent.self, from: encoded) == event)
    }

    @Test func sectionMovesAndInvalidMovesAreRecordedToo() throws {
        let section = DecisionEvent(policy: "t", policyHash: "h", decision: try bound.decide(.section(from: 1, to: 0)))
        #expect(section.jsonLine.contains("\"move\": {\"section-from\": 1, \"section-to\": 0}, \"decision\": \"allowed\", \"target\": [0]"))
        let invalid = DecisionEvent(policy: "t", policyHash: "h", invalid: .row(from: Position(section: 5, row: 0), to: Position(section: 0, row: 0)), error: "no")
        #expect(invalid.target == nil)
        #expect(try JSONDecoder().decode(DecisionEvent.self, from: Data(invalid.jsonLine.utf8)) == invalid)
    }

    @Test func hashIsStableAndDistinguishesContent() {
        #expect(DecisionEvent.hash([]) == "fnv1a64:cbf29ce484222325")
        #expect(DecisionEvent.hash(Array("a".utf8)) == "fnv1a64:af63dc4c8601ec8c")
        #expect(DecisionEvent.hash(Array("a".utf8)) != DecisionEvent.hash(Array("b".utf8)))
    }

    @Test("every item of a batch is logged: malformed items and offset moves too")
    func everyItemIsLogged() throws {
        let moves = """
            - { from: [0, 2], to: [0, 0] }
            - { section-from: 1, section-to: 0 }
            - { from: [0, 1] }
            - [1, 2]
            - { from-offsets: [1, 2], to-offset: 0, section: 0 }
            - { from-offsets: [0], to-offset: 9, section: 0 }
            - { from-offsets: [0], to-offset: 0, section: 7 }
            - { from: [9, 9], to: [0, 0] }
            """
        var runner = CheckRunner(bound: bound, format: .json)
        runner.log = JSONWriter()
        runner.policyHash = "h"
        let problems = MovesFile.stream(SourceFile(path: "m.yaml", text: moves)) { runner.decide($0) }
        #expect(problems.isEmpty)
        _ = runner.finish()
        let lines = try #require(runner.log).text.split(separator: "\n")
        #expect(lines.count == 8)
        let events = try lines.map { try JSONDecoder().decode(DecisionEvent.self, from: Data($0.utf8)) }
        #expect(events.map(\.decision) == ["retargeted", "allowed", "invalid", "invalid", "rejected", "invalid", "invalid", "invalid"])
        #expect(events[2].move.given == #"{"from": [0, 1]}"#)
        #expect(events[3].move.given == "[1, 2]")
        #expect(events[4].move.fromOffsets == [1, 2] && events[4].move.toOffset == 0 && events[4].move.section == 0)
        #expect(events[4].target == [0, 1] && events[4].rules == ["header"])
        #expect(events[6].error?.contains("section 7 does not exist") == true)
        #expect(events.allSatisfy { $0.policyHash == "h" && $0.policy == "t" })
    }
}
