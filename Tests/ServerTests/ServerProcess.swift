#if Server  // the server is built with the `Server` trait only (Package.swift)
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths of the package and the built executables (they sit next to the test bundle).
enum Build {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func executable(_ name: String) -> URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.path.hasSuffix(".xctest/Contents/MacOS") {
            dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        let candidate = dir.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    /// This test process's folder for the server tests, removed when the process exits.
    static let scratchRoot: URL = {
        atexit { try? FileManager.default.removeItem(at: scratchRootPath()) }
        return scratchRootPath()
    }()

    private static func scratchRootPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reorder-server-tests-\(getpid())")
    }

    /// A fresh scratch directory for one test, under ``scratchRoot``.
    static func scratchDirectory() throws -> URL {
        let dir = scratchRoot.appendingPathComponent(String(UUID().uuidString.prefix(8)))
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs the CLI from the package root and returns its exit status and standard output.
    static func cli(_ arguments: [String]) throws -> (status: Int32, stdout: [UInt8]) {
        let process = Process()
        process.executableURL = executable("reorder-policy")
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, [UInt8](data))
    }

    /// Runs `python3` with `arguments` from the package root: its exit status and its standard
    /// output and error together (the real consumers the tests drive are Python programs).
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

/// The built `reorder-policy-server`, started on a free loopback port and stopped by the test.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let port: Int
    let firstLine: String
    private let errors = Pipe()

    /// Starts the server from the package root with `arguments` (plus `--port 0`) and waits for
    /// the line that names its address.
    init(_ arguments: [String]) throws {
        process.executableURL = Build.executable("reorder-policy-server")
        process.arguments = arguments + ["--port", "0"]
        process.currentDirectoryURL = Build.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let line = ServerProcess.readLine(out.fileHandleForReading, timeout: 60)
        firstLine = line
        guard let colon = line.range(of: ":", options: .backwards),
              let port = Int(line[colon.upperBound...].prefix { $0.isNumber }) else {
            process.terminate()
            throw StartFailure(line: line)
        }
        self.port = port
    }

    struct StartFailure: Error, CustomStringConvertible {
        var line: String
        var description: String { "the server printed no address line; got '\(line)'" }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// Sends `signal` and waits (at most `timeout` seconds) for the exit status.
    func stop(_ signal: Int32 = SIGTERM, timeout: Double = 20) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        return process.terminationStatus
    }

    /// Everything the server wrote to standard error so far (only after it stopped).
    func standardError() -> String {
        String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
    }

    private static func readLine(_ handle: FileHandle, timeout: Double) -> String {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let chunk = handle.availableData  // blocks until data or EOF
            if chunk.isEmpty { break }
            bytes += chunk
            if bytes.contains(0x0A) { break }
        }
        let line = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).first ?? []
        return String(decoding: line, as: UTF8.self)
    }

    /// One HTTP/1.1 exchange on a new connection.
    func request(_ method: String, _ path: String, body: [UInt8] = [], headers: [String: String] = [:]) throws -> HTTPReply {
        try HTTPReply.exchange(port: port, method: method, path: path, body: body, headers: headers)
    }

    func post(_ path: String, json: String) throws -> HTTPReply {
        try request("POST", path, body: Array(json.utf8), headers: ["Content-Type": "application/json"])
    }

    func get(_ path: String) throws -> HTTPReply { try request("GET", path) }
}

/// A minimal HTTP/1.1 client over a POSIX socket: enough to send exactly the bytes a test
/// wants (also malformed ones) and read the reply.
struct HTTPReply {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body parsed as JSON (a dictionary), or nil.
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] }

    /// `error.code` of an error body.
    var errorCode: String? { (json?["error"] as? [String: Any])?["code"] as? String }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func exchange(port: Int, method: String, path: String, body: [UInt8], headers: [String: String]) throws -> HTTPReply {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket() failed") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect to port \(port) failed") }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if headers["Content-Length"] == nil && (!body.isEmpty || method == "POST") { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let out = Array(head.utf8) + body
        var sent = 0
        while sent < out.count {
            let n = out[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }  // the server may answer (413) and close before reading everything
            sent += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            received += buffer[0..<n]
        }
        return try parse(received)
    }

    static func parse(_ bytes: [UInt8]) throws -> HTTPReply {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { Array(bytes[$0..<$0 + 4]) == separator }) else {
            throw Failure(description: "no HTTP response (\(bytes.count) bytes)")
        }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { throw Failure(description: "bad status line \(lines[0])") }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            var decoded: [UInt8] = [], i = 0
            while i < body.count {
                var j = i
                while j + 1 < body.count && !(body[j] == 13 && body[j + 1] == 10) { j += 1 }
                let size = Int(String(decoding: body[i..<j], as: UTF8.self), radix: 16) ?? 0
                if size == 0 { break }
                decoded += body[(j + 2)..<min(body.count, j + 2 + size)]
                i = j + 2 + size + 2
            }
            body = decoded
        }
        return HTTPReply(status: status, headers: headers, body: body)
    }
}

/// Polls `condition` every 100 ms until it holds or `seconds` pass.
func eventually(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    repeat {
        if try condition() { return true }
        usleep(100_000)
    } while Date() < deadline
    return try condition()
}
#endif
