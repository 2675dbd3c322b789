#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to standard output and error without buffering surprises.
enum FileOutput {
    static func standardOutput(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { standardOutput($0) }
    }

    static func standardOutput(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard !standardOutputClosed else { return }
        var offset = 0
        while offset < buffer.count {
            let n = write(1, buffer.baseAddress! + offset, buffer.count - offset)  // offset < count: not empty
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                standardOutputClosed = true  // EPIPE: the reader is gone; the work goes on
                return
            }
            offset += n
        }
    }

    /// Set once stdout's reader has gone away (only the one thread writing stdout touches it).
    nonisolated(unsafe) static var standardOutputClosed = false

    static func standardOutput(_ text: String) { standardOutput(Array(text.utf8)) }

    /// Writes `text` to the file at `path`, created or truncated: nil when done, else why not
    /// (`cannot write 'out.sarif': Permission denied`).
    static func writeFile(_ path: String, _ text: String) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot write '\(path)': " + String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)  // offset < count: not empty
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return "cannot write '\(path)': " + (n < 0 ? String(cString: strerror(errno)) : "nothing was written") }
                offset += n
            }
            return nil
        }
    }

    static func standardError(_ text: String) {
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(2, buffer.baseAddress! + offset, buffer.count - offset)  // offset < count: not empty
                if n <= 0 { break }
                offset += n
            }
        }
    }
}

