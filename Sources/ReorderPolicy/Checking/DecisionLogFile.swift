import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A decision log (`check --log`, the server's `--log`): decision records appended as JSON
/// lines. Each batch of lines goes to the kernel in one locked write loop, so lines from
/// concurrent requests never interleave and nothing waits in a user-space buffer when the
/// process exits. Only regular files are opened (a FIFO would block), and a failed write (a
/// full disk) is reported through ``failure`` instead of stopping the process.
public final class DecisionLogFile: Sendable {
    private let descriptor: Mutex<Int32>
    /// The path as given.
    public let path: String

    /// Why the last write failed, if one did.
    public var failure: String? { lastFailure.withLock { $0 } }
    private let lastFailure = Mutex<String?>(nil)

    /// Opens `path` for appending, creating it; nil when it cannot be opened.
    public init?(path: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0o644)
        guard fd >= 0 else { return nil }
        // A FIFO or a device must not block the server: refuse anything but a regular file.
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            closeDescriptor(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.path = path
        descriptor = Mutex(fd)
    }

    /// Appends `bytes` (whole lines). Returns false when the write failed (a full disk).
    @discardableResult
    public func append(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        return descriptor.withLock { fd in
            guard fd >= 0 else { return false }
            return bytes.withUnsafeBufferPointer { buffer in
                var offset = 0
                while offset < buffer.count {
                    let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)  // offset < count: not empty
                    if n < 0 && errno == EINTR { continue }
                    if n <= 0 {
                        let reason = n < 0 ? String(cString: strerror(errno)) : "nothing was written"
                        lastFailure.withLock { $0 = "cannot write the decision log '\(path)': \(reason)" }
                        return false
                    }
                    offset += n
                }
                return true
            }
        }
    }

    /// Flushes to disk and closes; later appends are dropped.
    public func close() {
        descriptor.withLock { fd in
            guard fd >= 0 else { return }
            _ = fsync(fd)
            closeDescriptor(fd)
            fd = -1
        }
    }
}

/// The C library's `close`, named apart from ``DecisionLogFile/close()``.
private func closeDescriptor(_ fd: Int32) {
    _ = close(fd)
}
