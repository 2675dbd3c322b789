import SpannedYAML
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decides a moves file on two threads: the calling thread reads items into flat batches
/// (libyaml's share of the work), a second thread decodes them in place, decides them in order
/// and writes the output. Results come out in file order, exactly as a single-threaded run
/// would write them. libyaml is most of the work, so everything else is on the second thread.
public enum BatchPipeline {
    /// Items travel between the threads in batches, so handing over costs nothing per move;
    /// a batch of flat items takes about 1 KB an item.
    static let batchSize = 1024
    /// At most this many batches wait, which bounds memory whatever the file's size.
    static let queueLimit = 8

    /// A bounded, single-producer, single-consumer queue of batches, and the emptied batches
    /// going back to be filled again (their buffers kept: no allocation per batch).
    private final class Channel: @unchecked Sendable {
        private let condition = NSCondition()
        private var batches: [MovesBatch] = []
        private var spare: [MovesBatch] = []
        private var closed = false

        func put(_ batch: inout MovesBatch) {
            condition.lock()
            while batches.count >= BatchPipeline.queueLimit { condition.wait() }
            batches.append(batch)
            batch = spare.popLast() ?? MovesBatch()
            condition.broadcast()
            condition.unlock()
        }

        func close() {
            condition.lock()
            closed = true
            condition.broadcast()
            condition.unlock()
        }

        /// The next batch, or nil once the producer closed the channel and everything was taken.
        func take() -> MovesBatch? {
            condition.lock()
            defer { condition.unlock() }
            while batches.isEmpty && !closed { condition.wait() }
            guard !batches.isEmpty else { return nil }
            condition.broadcast()
            return batches.removeFirst()
        }

        /// Gives back a batch that was taken and emptied.
        func recycle(_ batch: MovesBatch) {
            condition.lock()
            if spare.count < 2 { spare.append(batch) }
            condition.unlock()
        }
    }

    /// The runner, handed to the deciding thread and back; only one thread touches it at a time.
    final class RunnerBox: @unchecked Sendable {
        var runner: CheckRunner
        init(_ runner: CheckRunner) { self.runner = runner }
    }

    /// Streams `source` into `runner`. `flush` is called on the deciding thread with output to
    /// write whenever the buffer grows past 4 MiB. Returns the problems that make the file
    /// unusable (see ``MovesFile/stream(_:_:)``); results decided before such a problem stay in `runner`.
    package static func run(
        _ source: SourceFile, runner: inout CheckRunner, flush: @escaping @Sendable (JSONWriter) -> Void,
        flushLog: (@Sendable (JSONWriter) -> Void)? = nil
    ) -> [Diagnostic] {
        run(runner: &runner, flush: flush, flushLog: flushLog) { MovesFile.stream(source, batchSize: batchSize, deliver: $0) }
    }

    /// Streams `source` into `runner`, handing `flush` the output bytes (UTF-8 JSON) whenever
    /// the buffer grows past 4 MiB, on the deciding thread. For embedders: the same pipeline as
    /// `check --moves`.
    public static func run(
        _ source: SourceFile, runner: inout CheckRunner, flushBytes: @escaping @Sendable (UnsafeBufferPointer<UInt8>) -> Void
    ) -> [Diagnostic] {
        run(source, runner: &runner, flush: { $0.withBytes(flushBytes) })
    }

    /// Streams the moves file at `path` into `runner` without holding the file (memory stays
    /// flat at any size). Throws when the file cannot be opened.
    ///
    /// A file of `pieces.minimumFileBytes` or more, on a machine with two cores or more, is
    /// read in pieces on up to 8 cores (``Pieces``); the output is the same byte for byte, and
    /// `flush` and `flushLog` are then called on the calling thread, with each piece's output.
    /// Text output is read as one stream: it names a malformed item by its line in the file,
    /// which a piece read on its own does not know (machine formats echo the item instead).
    package static func run(
        path: String, runner: inout CheckRunner, flush: @escaping @Sendable (JSONWriter) -> Void,
        flushLog: (@Sendable (JSONWriter) -> Void)? = nil, pieces: Pieces = Pieces()
    ) throws(SourceFile.ReadError) -> [Diagnostic] {
        let (fd, size) = try SourceFile.openRegular(path)
        defer { close(fd) }
        if size >= pieces.minimumFileBytes && pieces.workers >= 2 && runner.format != .text {
            return runInPieces(descriptor: fd, path: path, runner: &runner, flush: flush, flushLog: flushLog, pieces: pieces)
        }
        return run(runner: &runner, flush: flush, flushLog: flushLog) { deliver in
            MovesFile.stream(descriptor: fd, path: path, from: nil, batchSize: batchSize, deliver: deliver)
        }
    }

    /// Streams `produce`'s batches into `runner`: `produce` runs on the calling thread, the
    /// decisions on a second one.
    static func run(
        runner: inout CheckRunner, flush: @escaping @Sendable (JSONWriter) -> Void,
        flushLog: (@Sendable (JSONWriter) -> Void)?, produce: ((inout MovesBatch) -> Void) -> [Diagnostic]
    ) -> [Diagnostic] {
        let channel = Channel()
        let box = RunnerBox(runner)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            while var batch = channel.take() {
                box.runner.decide(all: &batch)
                channel.recycle(consume batch)  // the only reference: refilled without a copy
                if box.runner.output.count > 1 << 22 {
                    flush(box.runner.output)
                    box.runner.output.reset()
                }
                if let flushLog, let log = box.runner.log, log.count > 1 << 22 {
                    flushLog(log)
                    box.runner.log?.reset()
                }
            }
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        let problems = produce { channel.put(&$0) }
        channel.close()
        done.wait()
        runner = box.runner
        return problems
    }
}
