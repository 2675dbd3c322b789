import Foundation
import Testing

/// Runs the built `reorder-policy` executable from the package root, with colour off.
enum CLI {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let golden = packageRoot.appendingPathComponent("Tests/CLITests/Golden")

    /// The executable next to the test bundle (both live in the build products folder).
    static var executable: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        if dir.path.hasSuffix(".xctest/Contents/MacOS") {
            dir = dir.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        }
        let candidate = dir.appendingPathComponent("reorder-policy")
        if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        return packageRoot.appendingPathComponent(".build/debug/reorder-policy")
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the CLI with `NO_COLOR=1` (unless `removing` it), `extra` variables, and `input` on
    /// standard input (none: /dev/null, so a command that reads it never waits).
    /// Runs in `directory` (default: the package root). `inputFile` (a path such as
    /// `/dev/zero`) is standard input instead of `input`.
    static func run(_ arguments: [String], environment extra: [String: String] = [:], removing: [String] = [],
                    input: String? = nil, inputFile: String? = nil, in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        for (k, v) in extra { env[k] = v }
        for k in removing { env[k] = nil }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = try inputFile.map { try FileHandle(forReadingFrom: URL(fileURLWithPath: $0)) }
            ?? (input == nil ? FileHandle.nullDevice : stdin)
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes fully before waiting, so large outputs cannot block the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Compares `actual` with the golden file `name`; `RECORD_GOLDEN=1` rewrites it.
    static func assertGolden(_ actual: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = golden.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] == "1" {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "golden \(name) differs; re-record with RECORD_GOLDEN=1 swift test", sourceLocation: sourceLocation)
    }

    /// This test process's folder under the system temporary folder, removed when the process
    /// exits: every scratch file and folder of the CLI tests goes in it.
    static let scratchRoot: URL = {
        let root = scratchRootPath()
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: scratchRootPath()) }
        return root
    }()

    private static func scratchRootPath() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("reorder-policy-tests-\(getpid())")
    }

    /// Writes a scratch file under ``scratchRoot`` and returns its path.
    static func scratch(_ name: String, _ contents: String) throws -> String {
        let dir = scratchRoot
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs another program (`arguments[0]` found on PATH) in `directory`, with `extra`
    /// variables and without `removing`: its status and standard output, with standard error
    /// too when `mergingErrors`. Standard input is /dev/null.
    static func program(_ arguments: [String], in directory: URL = packageRoot, environment extra: [String: String] = [:],
                        removing: [String] = [], mergingErrors: Bool = true) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0].hasPrefix("/") ? arguments[0] : "/usr/bin/env")
        p.arguments = arguments[0].hasPrefix("/") ? Array(arguments.dropFirst()) : arguments
        p.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        for (k, v) in extra { env[k] = v }
        for k in removing { env[k] = nil }
        p.environment = env
        let out = Pipe()
        p.standardOutput = out
        p.standardError = mergingErrors ? out : FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Runs the CLI with `arguments` on a terminal (script(1) gives it one): what the terminal shows.
    static func onTerminal(_ arguments: [String], environment extra: [String: String] = [:], removing: [String] = []) throws -> String {
        let command = ([executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        return try program(["/usr/bin/script", "-qec", command, "/dev/null"], environment: extra, removing: removing, mergingErrors: false).output
    }

    /// A fresh folder under ``scratchRoot`` holding `files` (relative path → text).
    static func tree(_ files: [String: String]) throws -> URL {
        let root = scratchRoot.appendingPathComponent("tree-\(UUID().uuidString.prefix(8))")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// In CI a consumer that is missing fails its test instead of skipping it.
    static let inCI = ProcessInfo.processInfo.environment["CI"] != nil

    /// Runs `script` with python3, `input` on its standard input: the exit status and what it
    /// printed (standard output and error together).
    static func runPython(_ script: String, input: String) throws -> (Int32, String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let stdin = Pipe(), out = Pipe()
        p.standardInput = stdin
        p.standardOutput = out
        p.standardError = out
        try p.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func python(_ module: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", "import \(module)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
