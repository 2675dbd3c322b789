import Foundation

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
    public static func read(_ path: String, maxBytes: Int = YAMLLimits.policy.maxBytes) throws(ReadError) -> SourceFile {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadable(Diagnostic(code: .unreadable, message: "no such file", file: path, span: Span(at: .start)))
        }
        guard !isDirectory.boolValue else {
            throw .unreadable(Diagnostic(code: .unreadable, message: "expected a file, found a directory", file: path, span: Span(at: .start)))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        if size > maxBytes {
            throw .tooLarge(Diagnostic(code: .tooLarge, message: "file is \(size) bytes; at most \(maxBytes) are allowed",
                                       file: path, span: Span(at: .start), help: "policy and table files are limited to 8 MiB"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(Diagnostic(code: .unreadable, message: "cannot open the file for reading", file: path, span: Span(at: .start)))
        }
        defer { try? handle.close() }
        // Read at most one byte past the limit, in case the file grew after the size check.
        let data = (try? handle.read(upToCount: maxBytes == Int.max ? Int.max : maxBytes + 1)) ?? Data()
        if data.count > maxBytes {
            throw .tooLarge(Diagnostic(code: .tooLarge, message: "file is larger than \(maxBytes) bytes", file: path, span: Span(at: .start)))
        }
        return SourceFile(path: path, bytes: [UInt8](data))
    }

    /// The text of 1-based line `n`, without its newline (invalid UTF-8 shown as U+FFFD).
    public func line(_ n: Int) -> String? {
        var current = 1, start = 0
        var i = 0
        while i < bytes.count && current < n {
            if bytes[i] == 0x0A {
                current += 1
                start = i + 1
            }
            i += 1
        }
        guard current == n, start <= bytes.count else { return nil }
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        var text = String(decoding: bytes[start..<end], as: UTF8.self)
        if text.hasSuffix("\r") { text.removeLast() }
        return text
    }
}
