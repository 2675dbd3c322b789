import Foundation

/// The base protocol's framing (LSP 3.17, "Base Protocol"): a header block of `Name: value`
/// lines ended by an empty line (each line ends with `\r\n`), of which `Content-Length` is
/// required, then exactly that many bytes of UTF-8 JSON.
///
/// The reader never trusts its input: a header block over ``maxHeaderBytes``, a missing or
/// unreadable `Content-Length`, or a body over ``maxBodyBytes`` is reported as a
/// ``Frame/malformed(_:)`` and the reader resynchronises on the next `Content-Length` header
/// (a body too large is skipped as it arrives, never held in memory).
public struct FrameReader {
    /// One step of the stream.
    public enum Frame: Equatable, Sendable {
        /// A body, not yet decoded.
        case message(Data)
        /// Bytes that are not a frame; the error says why (sent back as a JSON-RPC parse error).
        case malformed(String)
        /// A frame whose body is larger than ``FrameReader/maxBodyBytes``: skipped unread (sent
        /// back as an invalid request).
        case oversized(String)
        /// The input ended.
        case end
    }

    /// The longest header block read (LSP clients send one or two short lines).
    public static let maxHeaderBytes = 8 * 1024
    /// The largest body read: a larger one is skipped and reported.
    public static let maxBodyBytes = 64 * 1024 * 1024

    private let read: () -> Data?
    private var buffer = Data()
    private var atEnd = false
    /// Bytes of an oversized body still to skip.
    private var skipping = 0

    /// Reads from `read`, which returns the next chunk of input, or nil (or empty) at its end.
    public init(read: @escaping () -> Data?) {
        self.read = read
    }

    /// Reads from a file handle (standard input for `reorder-policy lsp`).
    public init(handle: FileHandle) {
        // What one read(2) gives, as soon as anything is there; a read error ends the input
        // (`availableData` would trap on one, and `read(upToCount:)` waits for the whole count).
        let fd = handle.fileDescriptor
        self.init(read: {
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let n = chunk.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
                if n > 0 { return Data(chunk[0..<n]) }
                if n < 0 && errno == EINTR { continue }
                return nil
            }
        })
    }

    private mutating func fill() -> Bool {
        guard !atEnd, let chunk = read(), !chunk.isEmpty else {
            atEnd = true
            return false
        }
        buffer.append(chunk)
        return true
    }

    /// The next frame.
    public mutating func next() -> Frame {
        while skipping > 0 {
            if buffer.isEmpty && !fill() { return .end }
            let n = min(skipping, buffer.count)
            buffer.removeFirst(n)
            skipping -= n
        }
        // Blank lines between frames are not a header block.
        while true {
            if buffer.isEmpty && !fill() { return .end }
            guard let first = buffer.first, first == 0x0D || first == 0x0A else { break }
            buffer.removeFirst()
            buffer = Data(buffer)
        }
        // The header block.
        let separator = Data("\r\n\r\n".utf8)
        var headerEnd: Range<Data.Index>?
        while true {
            headerEnd = buffer.range(of: separator)
            if headerEnd != nil { break }
            if buffer.count > Self.maxHeaderBytes {
                let dropped = buffer.count
                resynchronise(dropping: 1)
                return .malformed("a header block of more than \(Self.maxHeaderBytes) bytes (\(dropped) read) without an empty line")
            }
            if !fill() {
                if buffer.allSatisfy({ $0 == 0x0D || $0 == 0x0A || $0 == 0x20 }) { return .end }
                buffer.removeAll()
                return .malformed("the input ended inside a header block")
            }
        }
        guard let headerEnd else { return .end }
        let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
        var length: Int? = nil
        var problem: String? = nil
        for line in header.split(separator: "\r\n", omittingEmptySubsequences: false) {
            guard let colon = line.firstIndex(of: ":") else {
                problem = "a header line without ':' (\(line.prefix(40).debugDescription))"
                break
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" {
                guard let n = Int(value), n >= 0 else {
                    problem = "Content-Length is not a number of bytes (\(value.prefix(40).debugDescription))"
                    break
                }
                length = n
            }
        }
        if problem == nil && length == nil { problem = "a header block without Content-Length" }
        if let problem {
            buffer.removeSubrange(buffer.startIndex..<headerEnd.upperBound)
            buffer = Data(buffer)
            if let length {
                // The length was read: its body follows, and is skipped.
                skipping = length
            } else {
                // Look for the next frame's header (what follows may be a body of this one).
                resynchronise(dropping: 0)
            }
            return .malformed(problem)
        }
        let bodyLength = length ?? 0
        buffer.removeSubrange(buffer.startIndex..<headerEnd.upperBound)
        buffer = Data(buffer)
        if bodyLength > Self.maxBodyBytes {
            skipping = bodyLength
            return .oversized("a message of \(bodyLength) bytes, more than the \(Self.maxBodyBytes) this server reads")
        }
        while buffer.count < bodyLength {
            if !fill() {
                buffer.removeAll()
                return .malformed("the input ended \(bodyLength) bytes into a message that it cut short")
            }
        }
        let body = Data(buffer.prefix(bodyLength))
        buffer.removeFirst(bodyLength)
        buffer = Data(buffer)
        return .message(body)
    }

    /// Drops bytes up to the next `Content-Length` header, in any case (at least `dropping`;
    /// all of them when there is none yet: a header is read whole or not at all).
    private mutating func resynchronise(dropping: Int) {
        buffer.removeFirst(min(dropping, buffer.count))
        buffer = Data(buffer)
        let lowered = Data(buffer.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        let name = Array("content-length".utf8)
        if let next = lowered.range(of: Data(name)) {
            buffer.removeSubrange(buffer.startIndex..<(buffer.startIndex + (next.lowerBound - lowered.startIndex)))
        } else {
            // Keep a tail that may be the start of the next header, cut by the read.
            let bytes = Array(lowered)
            let kept = (1..<name.count).reversed().first { k in k <= bytes.count && Array(bytes.suffix(k)) == Array(name.prefix(k)) } ?? 0
            buffer = Data(buffer.suffix(kept))
        }
        buffer = Data(buffer)
    }
}

/// Writes frames; safe to call from any thread (the analysis publishes from its own).
public final class FrameWriter: Sendable {
    private let write: @Sendable (Data) -> Void
    private let lock = NSLock()

    /// Writes each frame through `write`, one at a time.
    public init(write: @escaping @Sendable (Data) -> Void) {
        self.write = write
    }

    /// Writes to a file handle (standard output for `reorder-policy lsp`).
    public convenience init(handle: FileHandle) {
        // A client gone away (EPIPE) loses the frame; `write(_:)` would trap on it.
        self.init(write: { try? handle.write(contentsOf: $0) })
    }

    /// Writes `body` as one frame.
    public func send(_ body: Data) {
        var frame = Data("Content-Length: \(body.count)\r\n\r\n".utf8)
        frame.append(body)
        lock.withLock { write(frame) }
    }
}
