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
}
