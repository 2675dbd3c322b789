import Foundation
import Testing
@testable import JSONRPC

/// The base protocol's framing and envelopes against hostile input: every frame either reads
/// as one message or is reported, the reader always moves on, and nothing is held past its limits.
@Suite struct FramingTests {
    /// A reader over `chunks`, handed out one at a time (so frames split across reads).
    private func reader(_ chunks: [Data]) -> FrameReader {
        nonisolated(unsafe) var rest = chunks
        return FrameReader(read: { rest.isEmpty ? nil : rest.removeFirst() })
    }

    private func frame(_ body: String) -> Data { Data("Content-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8) }

    private func all(_ r: inout FrameReader) -> [FrameReader.Frame] {
        var out: [FrameReader.Frame] = []
        for _ in 0..<1000 {
            let f = r.next()
            out.append(f)
            if f == .end { break }
        }
        return out
    }

    @Test func framesSplitAnywhereReadTheSame() {
        let bytes = frame(#"{"jsonrpc":"2.0","method":"a"}"#) + frame(#"{"jsonrpc":"2.0","id":1,"method":"é😀"}"#)
        for size in 1...bytes.count {
            let chunks = stride(from: 0, to: bytes.count, by: size).map { Data(bytes[$0..<min($0 + size, bytes.count)]) }
            var r = reader(chunks)
            #expect(all(&r) == [.message(Data(#"{"jsonrpc":"2.0","method":"a"}"#.utf8)), .message(Data(#"{"jsonrpc":"2.0","id":1,"method":"é😀"}"#.utf8)), .end])
        }
    }

    @Test func malformedHeadersAreReportedAndSkipped() {
        var r = reader([Data("Content-Type: x\r\n\r\n".utf8), Data("Content-Length: abc\r\n\r\n".utf8), frame("{}")])
        let frames = all(&r)
        guard case .malformed(let a) = frames[0], case .malformed(let b) = frames[1] else {
            Issue.record("expected two malformed frames, got \(frames)")
            return
        }
        #expect(a.contains("without Content-Length"))
        #expect(b.contains("not a number"))
        #expect(frames[2] == .message(Data("{}".utf8)))
    }

    @Test func aHugeBodyIsSkippedUnread() {
        let huge = FrameReader.maxBodyBytes + 10
        let skipped = Data(repeating: 0x20, count: huge)
        var r = reader([Data("Content-Length: \(huge)\r\n\r\n".utf8), skipped, frame("{}")])
        let frames = all(&r)
        guard case .oversized(let problem) = frames[0] else { Issue.record("\(frames)"); return }
        #expect(problem.contains("more than"))
        #expect(frames[1] == .message(Data("{}".utf8)))
    }

    @Test func aHeaderBlockWithoutEndIsBounded() {
        var r = reader([Data(repeating: 0x41, count: FrameReader.maxHeaderBytes + 100), frame("{}")])
        let frames = all(&r)
        guard case .malformed = frames[0] else { Issue.record("\(frames)"); return }
        #expect(frames.contains(.message(Data("{}".utf8))))
    }

    @Test func aCutBodyEndsTheStream() {
        var r = reader([Data("Content-Length: 50\r\n\r\n{}".utf8)])
        let frames = all(&r)
        guard case .malformed(let problem) = frames[0] else { Issue.record("\(frames)"); return }
        #expect(problem.contains("cut short"))
        #expect(frames.last == .end)
    }

    @Test func envelopes() throws {
        func decode(_ s: String) -> Result<IncomingMessage, DecodeFailure> { IncomingMessage.decode(Data(s.utf8)) }
        guard case .failure(let f1) = decode("nope") else { Issue.record("text accepted"); return }
        let e1 = f1.error
        #expect(e1.code == ErrorCode.parseError.rawValue)
        guard case .failure(let f2) = decode("[1]") else { Issue.record("a batch accepted"); return }
        let e2 = f2.error
        #expect(e2.code == ErrorCode.invalidRequest.rawValue)
        guard case .failure(let f3) = decode(#"{"jsonrpc":"1.0","id":3,"method":"x"}"#) else { Issue.record("1.0 accepted"); return }
        #expect(f3.id == .number(3) && f3.error.code == ErrorCode.invalidRequest.rawValue)
        guard case .success(let m) = decode(#"{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}"#) else { Issue.record("valid refused"); return }
        #expect(m.id == .string("a") && m.method == "m" && m.isRequest)
        struct X: Decodable { var x: Int }
        #expect(try m.params(X.self).x == 1)
        struct Y: Decodable { var y: String }
        #expect(throws: ResponseError.self) { try m.params(Y.self) }
    }

    @Test func responsesAreJSONRPC() throws {
        let ok = try JSONSerialization.jsonObject(with: Outgoing.response(id: .number(1), result: Optional<Int>.none)) as? [String: Any]
        #expect(ok?["jsonrpc"] as? String == "2.0" && ok?["id"] as? Int == 1 && ok?.keys.contains("result") == true && ok?["result"] is NSNull)
        let failed = try JSONSerialization.jsonObject(with: Outgoing.error(id: nil, ResponseError(.parseError, "x"))) as? [String: Any]
        #expect(failed?["id"] is NSNull && (failed?["error"] as? [String: Any])?["code"] as? Int == -32700)
    }

    /// Random bytes, random frames and random cuts: the reader always ends, reports what it
    /// cannot read, and the envelope decoder never traps.
    @Test func randomInputNeverTraps() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var bytes = Data()
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                switch Int.random(in: 0...4, using: &rng) {
                case 0: bytes += frame(#"{"jsonrpc":"2.0","id":1,"method":"x"}"#)
                case 1: bytes += Data("Content-Length: \(Int.random(in: -5...200, using: &rng))\r\n\r\n".utf8)
                case 2: bytes += Data((0..<Int.random(in: 0...50, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
                case 3: bytes += frame(String(decoding: (0..<Int.random(in: 0...30, using: &rng)).map { _ in UInt8.random(in: 0...127, using: &rng) }, as: UTF8.self))
                default: bytes += Data("\r\n".utf8)
                }
            }
            let cut = Int.random(in: 1...max(1, bytes.count), using: &rng)
            var r = reader(stride(from: 0, to: bytes.count, by: cut).map { Data(bytes[$0..<min($0 + cut, bytes.count)]) })
            let frames = all(&r)
            #expect(frames.last == .end)
            for case .message(let body) in frames { _ = IncomingMessage.decode(body) }
        }
    }
}

extension FramingTests {
    /// A header block with a length that does not read, then its body: the body is skipped with
    /// it, and the frames after it read (the stream never stays out of step).
    @Test func aBadHeaderWithABodyKeepsTheStreamInStep() {
        var r = reader([Data("Content-Length: 2\r\nX\r\n\r\n{}".utf8), Data("\r\n".utf8), frame(#"{"a":1}"#), Data("content-LENGTH: x\r\n\r\n".utf8), frame("[]")])
        let frames = all(&r)
        #expect(frames.filter { if case .message = $0 { true } else { false } } == [.message(Data(#"{"a":1}"#.utf8)), .message(Data("[]".utf8))], "\(frames)")
    }

    /// A resynchronisation keeps the start of a header that a read cut.
    @Test func aCutHeaderSurvivesResynchronisation() {
        var r = reader([Data("garbage\r\n\r\nCont".utf8), Data("ent-Length: 2\r\n\r\n{}".utf8)])
        let frames = all(&r)
        #expect(frames.contains(.message(Data("{}".utf8))), "\(frames)")
    }
}
