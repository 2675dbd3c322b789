#if canImport(Glibc)
import SpannedYAML
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file's name as the user gave it and its bytes, kept for code frames.
public struct SourceFile: Sendable {
    /// The path as the user named it.
    public var path: String
    /// The file's bytes.
    public var bytes: [UInt8]

    /// Creates a source from text (for tests and policies built in memory).
    public init(path: String, text: String) {
        self.path = path
        self.bytes = Array(text.utf8)
    }

    /// Creates a source from bytes.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Why a file could not be read at all.
    public enum ReadError: Error, Sendable {
        /// Missing, a directory, or no permission: a usage error (exit 2).
        case unreadable(Diagnostic)
        /// Over the size limit, checked before reading: an input error.
        case tooLarge(Diagnostic)

        /// The diagnostic either way.
        public var diagnostic: Diagnostic {
            switch self {
            case .unreadable(let d), .tooLarge(let d): d
            }
        }
    }

    /// Reads `path`, refusing files over `maxBytes` before reading them.
    ///
    /// The one place the tool reads input files. It never blocks and never reads without
    /// bound: the file is opened non-blocking, anything but a regular file (a FIFO, a device
    /// such as `/dev/zero`, a socket) is refused before a byte is read, the size limit is
    /// checked on the open file, and every I/O error becomes a coded diagnostic.
    ///
    /// With `untilUnreadable`, reading stops once a byte no YAML reader takes (a NUL, another
    /// control character, invalid UTF-8) has been read: a moves file is used only up to its
    /// first such byte (SPEC §4; `YAMLEventStream`'s `upToUnreadable`), so standard input
    /// from `/dev/zero` or a binary file ends at once instead of being read without end.
    public static func read(_ path: String, maxBytes: Int = YAMLLimits.policy.maxBytes, untilUnreadable: Bool = false) throws(ReadError) -> SourceFile {
        func unreadable(_ message: String, help: String? = nil) -> ReadError {
            .unreadable(Diagnostic(code: .unreadable, message: message, file: path, span: Span(at: .start), help: help))
        }
        // `-` is standard input (a pipe or a terminal, read to its end with the same limit).
        if path == "-" { return try readAll(0, path: standardInputName, size: 0, maxBytes: maxBytes, untilUnreadable: untilUnreadable) }
        let (fd, size) = try openRegular(path)
        defer { close(fd) }
        if size > maxBytes {
            throw .tooLarge(Diagnostic(code: .tooLarge, message: "file is \(size) bytes; at most \(maxBytes) are allowed",
                                       file: path, span: Span(at: .start), help: "policy and table files are limited to 8 MiB"))
        }
        return try readAll(fd, path: path, size: size, maxBytes: maxBytes, untilUnreadable: untilUnreadable)
    }

    /// How diagnostics name standard input (`-` on the command line).
    public static let standardInputName = "<stdin>"

    /// Reads `fd` to its end, at most one byte past `maxBytes` (in case the file grew).
    private static func readAll(_ fd: Int32, path: String, size: Int, maxBytes: Int, untilUnreadable: Bool) throws(ReadError) -> SourceFile {
        func unreadable(_ message: String, help: String? = nil) -> ReadError {
            .unreadable(Diagnostic(code: .unreadable, message: message, file: path, span: Span(at: .start), help: help))
        }
        let limit = maxBytes == Int.max ? Int.max : maxBytes + 1
        var bytes = [UInt8](repeating: 0, count: Swift.min(size + 1, limit))
        var count = 0, scanned = 0
        while count < limit {
            if count == bytes.count { bytes.append(contentsOf: repeatElement(0, count: Swift.min(Swift.max(bytes.count, 4096), limit - count))) }
            // `bytes` was just grown past `count`, so it is not empty.
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw unreadable("cannot read the file: " + SystemError.describe(errno)) }
            if n == 0 { break }
            count += n
            if untilUnreadable {
                let scan = bytes.withUnsafeBufferPointer { UnreadableScan.first(in: UnsafeBufferPointer(rebasing: $0[scanned..<count]), final: false) }
                if scan.bad != nil { break }  // nothing after it is read
                scanned += scan.complete
            }
        }
        if count > maxBytes {
            throw .tooLarge(Diagnostic(code: .tooLarge, message: "file is larger than \(maxBytes) bytes", file: path, span: Span(at: .start)))
        }
        bytes.removeSubrange(count...)
        return SourceFile(path: path, bytes: bytes)
    }

    /// Opens `path` for reading without blocking and returns its descriptor and size; anything
    /// but a regular file (a FIFO, a device such as `/dev/zero`, a socket) is refused before a
    /// byte is read. The caller closes the descriptor.
    public static func openRegular(_ path: String) throws(ReadError) -> (descriptor: Int32, size: Int) {
        func unreadable(_ message: String, help: String? = nil) -> ReadError {
            .unreadable(Diagnostic(code: .unreadable, message: message, file: path, span: Span(at: .start), help: help))
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw unreadable(SystemError.describe(errno)) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw unreadable(SystemError.describe(code))
        }
        let kind = info.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            switch kind {
            case S_IFDIR: throw unreadable("expected a file, found a directory")
            case S_IFIFO: throw unreadable("expected a regular file, found a FIFO (named pipe)", help: "write the input to a file first")
            case S_IFCHR, S_IFBLK: throw unreadable("expected a regular file, found a device", help: "write the input to a file first")
            default: throw unreadable("expected a regular file")
            }
        }
        return (fd, Int(info.st_size))
    }

    /// Lines `lines` of the file at `path`, read as a stream and kept at their line numbers
    /// (the other lines empty): enough for code frames under errors in files too large to hold.
    public static func excerpt(_ path: String, lines wanted: Set<Int>) -> SourceFile? {
        guard let last = wanted.max(), let (fd, _) = try? openRegular(path) else { return nil }
        defer { close(fd) }
        // Lines end where libyaml ends them (LF, CR, CR LF, NEL, LS, PS: the lines diagnostics
        // name); each is written with an LF.
        var out: [UInt8] = [], line = 1
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        reading: while true {
            let n = buffer.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress!, $0.count) }  // 64 KiB, never empty
            if n <= 0 { break }
            for byte in buffer[0..<n] {
                defer { beforePrevious = previous; previous = byte }
                let lead = LineBreaks.breakLength(ending: byte, previous: previous, beforePrevious: beforePrevious)
                guard let lead else {
                    if wanted.contains(line) { out.append(byte) }
                    continue
                }
                if lead < 0 { continue }  // the LF of a CR LF
                if wanted.contains(line) { out.removeLast(lead) }  // a break's first bytes, taken for text
                out.append(0x0A)
                line += 1
                if line > last { break reading }
            }
        }
        return SourceFile(path: path, bytes: out)
    }

    /// The text of 1-based line `n`, without its newline (invalid UTF-8 shown as U+FFFD).
    /// Scans the file; renderers that show many lines use ``SourceLines`` instead.
    public func line(_ n: Int) -> String? {
        SourceLines(self).line(n)
    }
}

/// Where each line of a source starts, found once, so that showing a line costs its own
/// length rather than a scan of the file (a file with 20,000 findings stays linear).
public struct SourceLines: Sendable {
    /// The file.
    public let source: SourceFile
    private let starts: [Int]

    private let ends: [Int]

    /// Indexes the lines of `source`, ended where libyaml ends them (LF, CR, CR LF, NEL, LS,
    /// PS), so that the line a diagnostic names is the line shown.
    public init(_ source: SourceFile) {
        self.source = source
        var starts = [0], ends: [Int] = []
        source.bytes.withUnsafeBufferPointer { b in
            var previous: UInt8 = 0, beforePrevious: UInt8 = 0
            for i in b.indices {
                defer { beforePrevious = previous; previous = b[i] }
                guard let lead = LineBreaks.breakLength(ending: b[i], previous: previous, beforePrevious: beforePrevious) else { continue }
                if lead < 0 {
                    starts[starts.count - 1] = i + 1  // the LF of a CR LF: the line starts after it
                    continue
                }
                ends.append(i - lead)
                starts.append(i + 1)
            }
        }
        ends.append(source.bytes.count)
        self.starts = starts
        self.ends = ends
    }

    /// The byte range of 1-based line `n`, without its line break.
    public func range(_ n: Int) -> Range<Int>? {
        guard n >= 1, n <= starts.count else { return nil }
        return starts[n - 1]..<max(starts[n - 1], ends[n - 1])
    }

    /// The text of 1-based line `n`, without its line break (invalid UTF-8 shown as U+FFFD).
    public func line(_ n: Int) -> String? {
        range(n).map { String(decoding: source.bytes[$0], as: UTF8.self) }
    }
}

/// The C library's `read`, named apart from ``SourceFile/read(_:maxBytes:)``.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}
