import SpannedYAML
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - A moves file in pieces, on every core

/// A big moves file is cut into pieces at lines that open with `- `, and each piece is read by
/// libyaml as a file of its own, decoded, decided and written on one of several threads (one
/// a core, at most 8; a machine with one core reads the file as one stream). The
/// calling thread reads the file, hands the pieces out and writes their output in file order.
/// libyaml reads one stream on one core; here it reads several at once.
///
/// **Why the output is the same as reading the file whole.** A piece is kept only when it
/// stands on its own (``MovesFile/readPiece(_:file:batchSize:batch:deliver:)``): one block sequence
/// that starts at column 1, runs to the piece's end and holds nothing libyaml or SPEC §4
/// objects to, no directive and no `...`. Let the pieces before piece *k* all stand on their
/// own. Then where piece *k* starts, the whole file's parser is between two entries of the
/// document's top block sequence, at column 1, outside any flow collection, quoted scalar or
/// block scalar, with no property pending and no error found: anything that runs across a line
/// that opens with `- ` (a quoted scalar or a flow collection left open, a block scalar of the
/// document itself, a plain scalar at the document's top level, a second document, a
/// top-level mapping) makes the piece before that line fail to stand on its own, because
/// libyaml then meets the piece's end inside it or sees something other than one block
/// sequence. A piece that opens with `- ` at column 1 read from that state gives the same
/// events as read alone, as the scanner's state there (indentation 0, flow level 0, no
/// simple key) is the one a new stream reaches after its first `- `. So every item of a piece
/// that stands on its own is the item the whole file gives, and so are its decision and its
/// output. At the first piece that does not stand on its own, the rest of the file, from that
/// piece's first byte, is read as one stream (``MovesFile/stream(descriptor:path:from:batchSize:deliver:)``)
/// whose marks count from there, with nothing reported before it; what it reports is what the
/// whole file would. `BatchPipelinePiecesTests` compares both ways over random files with
/// quoted, flow, block and plain scalars across lines, comments, directives, documents,
/// anchors, tags, byte order marks, line breaks of every kind and unreadable bytes, cut into
/// pieces of a few bytes.
extension BatchPipeline {
    /// How a moves file is read in pieces.
    package struct Pieces: Sendable {
        /// Files smaller than this are read as one stream (the two-thread pipeline).
        package var minimumFileBytes = 4 << 20
        /// The size a piece is cut at, at the next line that opens with `- ` before it.
        package var pieceBytes = 1 << 17
        /// Past this with no line that opens with `- `, the rest is read as one stream.
        package var maximumPieceBytes = 1 << 20
        /// Threads that read and decide pieces.
        package var workers = min(ProcessInfo.processInfo.activeProcessorCount, 8)
        /// Told, once a file was read in pieces, how many were written and where the rest was
        /// read as one stream from (nil if nowhere): for tests.
        package var report: (@Sendable (_ piecesWritten: Int, _ restFrom: Int?) -> Void)? = nil
        /// Told, once a file was read in pieces, the most pieces and the most bytes of pieces
        /// that were in flight at once (read, decided or waiting to be written): for tests.
        package var inFlightReport: (@Sendable (_ mostPieces: Int, _ mostBytes: Int) -> Void)? = nil

        package init() {}

        package init(minimumFileBytes: Int, pieceBytes: Int, maximumPieceBytes: Int, workers: Int) {
            self.minimumFileBytes = minimumFileBytes
            self.pieceBytes = pieceBytes
            self.maximumPieceBytes = maximumPieceBytes
            self.workers = workers
        }

        /// Pieces read, decided or waiting to be written at once, and their bytes (a result's
        /// JSON takes about ten times its move's text): memory stays flat at any file size.
        var inFlight: Int { 2 * workers }
        var inFlightBytes: Int { 2 * workers * pieceBytes }
    }

    /// A piece of the file, and once read, its runner (output and counts) and its end.
    private final class Piece: @unchecked Sendable {
        // Unchecked: filled by one worker, read by the writer after the queue hands it over.
        let index: Int
        /// The file's offset of its first byte (a byte order mark included).
        let offset: Int
        let length: Int
        var bytes: [UInt8]
        var runner: CheckRunner?
        var marks: (sequence: Mark, end: Mark)?

        init(index: Int, offset: Int, bytes: [UInt8]) {
            self.index = index
            self.offset = offset
            self.bytes = bytes
            length = bytes.count
        }
    }

    /// The pieces waiting for a worker, and those read, by index.
    private final class PieceQueue: @unchecked Sendable {
        // Unchecked: every property is read and changed under `condition`.
        private let condition = NSCondition()
        private var waiting: [Piece] = []
        private var done: [Int: Piece] = [:]
        private var closed = false
        private var cancelled = false
        /// Output buffers written out and emptied, for the next pieces: no buffer grows, and
        /// no page is touched for the first time, after the first few pieces.
        private var spareOutputs: [JSONWriter] = []

        func takeOutput() -> JSONWriter? {
            condition.lock()
            defer { condition.unlock() }
            return spareOutputs.popLast()
        }

        func recycle(_ output: JSONWriter) {
            condition.lock()
            spareOutputs.append(output)
            condition.unlock()
        }

        /// Pieces' byte buffers once read, for the next pieces.
        private var spareBytes: [[UInt8]] = []

        func takeBytes() -> [UInt8]? {
            condition.lock()
            defer { condition.unlock() }
            return spareBytes.popLast()
        }

        func recycle(_ bytes: inout [UInt8]) {
            bytes.removeAll(keepingCapacity: true)
            condition.lock()
            spareBytes.append(bytes)
            condition.unlock()
            bytes = []
        }

        func submit(_ piece: Piece) {
            condition.lock()
            waiting.append(piece)
            condition.broadcast()
            condition.unlock()
        }

        /// The next piece to read, or nil once closed.
        func take() -> Piece? {
            condition.lock()
            defer { condition.unlock() }
            while waiting.isEmpty && !closed { condition.wait() }
            return waiting.isEmpty ? nil : waiting.removeFirst()
        }

        /// Whether the pieces not yet read are not wanted any more.
        var isCancelled: Bool {
            condition.lock()
            defer { condition.unlock() }
            return cancelled
        }

        /// Lets go of the buffers kept for more pieces and of pieces read but not used.
        func drain() {
            condition.lock()
            spareOutputs.removeAll()
            spareBytes.removeAll()
            done.removeAll()
            condition.unlock()
        }

        func finished(_ piece: Piece) {
            condition.lock()
            done[piece.index] = piece
            condition.broadcast()
            condition.unlock()
        }

        /// Waits for piece `index` to be read.
        func result(_ index: Int) -> Piece {
            condition.lock()
            defer { condition.unlock() }
            while done[index] == nil { condition.wait() }
            return done.removeValue(forKey: index)!  // just waited for it
        }

        /// No more pieces; with `cancel`, those not started are dropped and those started are
        /// not used.
        func close(cancel: Bool) {
            condition.lock()
            closed = true
            if cancel {
                cancelled = true
                waiting.removeAll()
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// Cuts the file into pieces that end just before a line that opens with `- `.
    private struct PieceCutter {
        let descriptor: Int32
        let options: Pieces
        /// Bytes read past the last piece.
        var carry: [UInt8] = []
        /// The file's offset of `carry`'s first byte.
        var offset = 0
        /// The byte order mark's length (0 or 3): offsets in the text count from after it.
        var bom = 0
        var atEnd = false
        var failed = false

        enum Cut { case piece(offset: Int, bytes: [UInt8]), end, stop(offset: Int) }

        init(descriptor: Int32, options: Pieces) {
            self.descriptor = descriptor
            self.options = options
        }

        /// Reads until `bytes` holds `want` bytes or the file ends; false on a read error.
        private mutating func fill(_ bytes: inout [UInt8], to want: Int) -> Bool {
            while bytes.count < want && !atEnd {
                let old = bytes.count
                let room = want - old
                bytes.append(contentsOf: repeatElement(0, count: room))
                let n = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + old, room) }
                if n < 0 && errno == EINTR {
                    bytes.removeLast(room)
                    continue
                }
                bytes.removeLast(room - max(n, 0))
                if n < 0 { return false }
                if n == 0 { atEnd = true }
            }
            return true
        }

        /// The next piece, in `spare`'s buffer if given.
        mutating func next(reusing spare: [UInt8]?) -> Cut {
            if failed { return .stop(offset: offset) }
            var bytes = spare ?? []
            bytes.reserveCapacity(options.pieceBytes + (1 << 16))
            bytes.append(contentsOf: carry)
            carry.removeAll(keepingCapacity: true)
            var searchFrom = 1
            var want = options.pieceBytes
            while true {
                guard fill(&bytes, to: want) else {
                    // A read error: the stream reads from here and reports it.
                    failed = true
                    carry = bytes
                    return .stop(offset: offset)
                }
                if offset == 0 && bom == 0 && bytes.count >= 3 && ByteOrderMark.length(bytes) == 3 && searchFrom == 1 {
                    bom = 3
                    bytes.removeFirst(3)
                    offset = 3
                    continue
                }
                if atEnd {
                    if bytes.isEmpty { return .end }
                    defer { offset += bytes.count }
                    return .piece(offset: offset, bytes: bytes)
                }
                if let cut = Self.lastLineStart(in: bytes, from: searchFrom) {
                    carry = Array(bytes[cut...])
                    bytes.removeLast(bytes.count - cut)
                    defer { offset += bytes.count }
                    return .piece(offset: offset, bytes: bytes)
                }
                guard bytes.count < options.maximumPieceBytes else {
                    carry = bytes
                    return .stop(offset: offset)
                }
                searchFrom = max(1, bytes.count - 2)
                want = bytes.count + options.pieceBytes
            }
        }

        /// The last offset at or after `from` where a line opens with `- ` (after a line feed).
        static func lastLineStart(in bytes: [UInt8], from: Int) -> Int? {
            bytes.withUnsafeBufferPointer { b in
                var k = b.count - 2
                while k >= from {
                    if b[k] == 0x2D && b[k + 1] == 0x20 && b[k - 1] == 0x0A { return k }
                    k -= 1
                }
                return nil
            }
        }
    }

    /// Reads the moves file open at `descriptor` in pieces on `pieces.workers` threads (see
    /// above), and the rest as one stream from the first piece that does not stand on its own.
    static func runInPieces(
        descriptor: Int32, path: String, runner: inout CheckRunner, flush: @escaping @Sendable (JSONWriter) -> Void,
        flushLog: (@Sendable (JSONWriter) -> Void)?, pieces options: Pieces
    ) -> [Diagnostic] {
        let queue = PieceQueue()
        let parent = RunnerBox(runner)  // read by every worker, changed by none
        let startsAfterResults = runner.resultCount > 0
        let group = DispatchGroup()
        for _ in 0..<options.workers {
            group.enter()
            let thread = Thread {
                var batch = MovesBatch()  // its buffers serve every piece this thread reads
                // A binding of its own: no reference count is shared with another thread.
                let bound = parent.runner.bound.isolatedCopy() ?? parent.runner.bound
                while let piece = queue.take() {
                    if !queue.isCancelled {
                        let follows = piece.index > 0 || startsAfterResults
                        // A result's JSON takes about ten times its move's text.
                        let output = queue.takeOutput() ?? JSONWriter(capacity: piece.bytes.count * 16)
                        var pieceRunner = CheckRunner(pieceOf: parent.runner, bound: bound, follows: follows, output: output)
                        piece.marks = piece.bytes.withUnsafeBufferPointer { bytes in
                            MovesFile.readPiece(bytes, file: path, batchSize: batchSize, batch: &batch) { batch in
                                pieceRunner.decide(all: &batch)
                            }
                        }
                        queue.recycle(&piece.bytes)
                        piece.runner = pieceRunner
                    }
                    queue.finished(piece)
                }
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        var cutter = PieceCutter(descriptor: descriptor, options: options)
        var submitted = 0, written = 0, bytesInFlight = 0
        var mostPieces = 0, mostBytes = 0
        var origin = StreamOrigin()
        var restFrom: Int? = nil
        var openingWritten = false
        var cutting = true
        while true {
            while cutting && submitted - written < options.inFlight && (bytesInFlight < options.inFlightBytes || submitted == written) {
                switch cutter.next(reusing: queue.takeBytes()) {
                case .piece(let offset, let bytes):
                    bytesInFlight += bytes.count
                    queue.submit(Piece(index: submitted, offset: offset, bytes: bytes))
                    submitted += 1
                    mostPieces = max(mostPieces, submitted - written)
                    mostBytes = max(mostBytes, bytesInFlight)
                case .end:
                    cutting = false
                case .stop(let offset):
                    cutting = false
                    restFrom = offset
                }
            }
            guard written < submitted else { break }
            let piece = queue.result(written)
            bytesInFlight -= piece.length
            let follows = piece.index > 0 || startsAfterResults
            guard let marks = piece.marks, let pieceRunner = piece.runner, !follows || runner.resultCount > 0 else {
                restFrom = piece.offset
                break
            }
            if !openingWritten {
                flush(runner.output)
                runner.output.reset()
                openingWritten = true
            }
            flush(pieceRunner.output)
            piece.runner = nil
            queue.recycle(pieceRunner.output)  // emptied by the next runner that takes it
            if let log = pieceRunner.log {
                if let flushLog { flushLog(log) } else { runner.log?.append(log) }
            }
            runner.absorb(pieceRunner, follows: follows)
            if piece.index == 0 { origin.sequenceLine = marks.sequence.line }
            origin = origin.advanced(by: marks.end, bytes: piece.length)
            written += 1
        }
        queue.close(cancel: true)
        group.wait()
        options.report?(written, restFrom)
        options.inFlightReport?(mostPieces, mostBytes)
        queue.drain()
        cutter.carry = []
        guard let restFrom else { return [] }
        // The rest, from the first piece that does not stand on its own (or that was not cut).
        guard lseek(descriptor, off_t(restFrom), SEEK_SET) == off_t(restFrom) else {
            return [Diagnostic(code: .unreadable, message: "cannot read the file: " + SystemError.describe(errno),
                               file: path, span: Span(at: .start))]
        }
        origin.bytes = restFrom - cutter.bom
        // From the file's start (a read that failed at once), the stream looks for the byte
        // order mark itself.
        let from = restFrom == 0 ? nil : (offset: restFrom, origin: origin)
        return run(runner: &runner, flush: flush, flushLog: flushLog) { deliver in
            MovesFile.stream(descriptor: descriptor, path: path, from: from, batchSize: batchSize, deliver: deliver)
        }
    }
}
