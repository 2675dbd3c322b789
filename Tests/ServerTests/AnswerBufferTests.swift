#if Server  // the server is built with the `Server` trait only (Package.swift)
import Foundation
import NIOCore
import ReorderEngine
import ReorderPolicy
@testable import ReorderServer
import Testing

/// A decided answer is sent from the JSON writer's own buffer (`ByteBuffer(takingOwnershipOf:)`
/// with `DecisionResponder.Answer.writerMemory`), not copied into one of NIO's.
@Suite struct AnswerBufferTests {
    static let policy = try! PolicyLoader.compile(text: "reorder-policy: 1\nname: t\nrules:\n  - keep-in-section: { id: b }\n")

    static func body(moves: Int) -> [UInt8] {
        let items = (0..<moves).map { n in "{\"from\": [0, \(n % 3)], \"to\": [1, \(n % 2)]}" }
        return Array("{\"table\": {\"sections\": [{\"id\": \"S\", \"rows\": [\"a\", \"b\", \"c\"]}, {\"id\": \"T\", \"rows\": [\"d\"]}]}, \"moves\": [\(items.joined(separator: ", "))]}".utf8)
    }

    @Test("a decided answer's bytes are the writer's buffer itself, the same bytes the reply held")
    func answerTakesTheWritersBuffer() throws {
        for moves in [1, 10, 1_000] {
            let reply = DecisionService.check(body: Self.body(moves: moves), policy: Self.policy, policyHash: "h", logging: false)
            let expected = reply.body
            let address = reply.withBody { UnsafeRawPointer($0.baseAddress) }
            let answer = DecisionResponder.Answer(consume reply)
            #expect(answer.status == 200)
            #expect(answer.body.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } == address, "\(moves) moves: copied")
            #expect(Array(answer.body.readableBytesView) == expected)
        }
    }

    @Test("a reply that a copy still holds is copied into the answer, and both keep their bytes")
    func sharedReplyIsCopied() throws {
        let reply = DecisionService.check(body: Self.body(moves: 10), policy: Self.policy, policyHash: "h", logging: false)
        let kept = reply
        let answer = DecisionResponder.Answer(reply)
        #expect(Array(answer.body.readableBytesView) == kept.body)
        #expect(answer.body.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } != kept.withBody { UnsafeRawPointer($0.baseAddress) })
    }

    @Test("a taken buffer grows, is copied on write and is freed through the writer's allocator")
    func takenBufferBehavesAsAnyByteBuffer() throws {
        let reply = DecisionService.check(body: Self.body(moves: 100), policy: Self.policy, policyHash: "h", logging: false)
        let expected = reply.body
        let address = reply.withBody { UnsafeRawPointer($0.baseAddress) }
        let answer = DecisionResponder.Answer(consume reply)
        #expect(answer.body.withUnsafeReadableBytes { UnsafeRawPointer($0.baseAddress) } == address)
        // A copy written to is copied first (the allocator's allocate and copy), and the
        // original keeps its bytes.
        var copy = answer.body
        copy.writeString(" and more")
        #expect(Array(answer.body.readableBytesView) == expected)
        #expect(Array(copy.readableBytesView) == expected + Array(" and more".utf8))
        // The only reference, grown past its capacity (the allocator's reallocate).
        var grown = DecisionResponder.Answer(DecisionService.check(body: Self.body(moves: 100), policy: Self.policy, policyHash: "h", logging: false)).body
        let extra = [UInt8](repeating: UInt8(ascii: " "), count: grown.capacity + 1)
        grown.writeBytes(extra)
        #expect(Array(grown.readableBytesView) == expected + extra)
    }
}
#endif
