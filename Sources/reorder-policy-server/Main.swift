#if Server  // the server is built with the `Server` trait only (Package.swift)
import ArgumentParser
import CServerSupport
import Foundation
import Logging
import ReorderPolicy
import ReorderServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `reorder-policy-server`: decides moves over HTTP for services in any language (SPEC §9).
@main
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reorder-policy-server",
        abstract: "Serve reorder policies over HTTP: the JSON of check and explain, with hot reload.",
        discussion: """
            Endpoints: GET /health, GET /v1/policies, POST /v1/policies/{name}/check,
            POST /v1/policies/{name}/explain, POST /v1/policies/{name}/destinations, GET /client.js,
            GET /metrics, GET /openapi.json; with --playground also GET /playground, POST /v1/playground,
            GET /v1/playground/examples and the example pages under /examples/.
            Exit status: 0 after SIGTERM or SIGINT (requests in flight finish, the log is flushed),
            2 when a policy has errors at start, two policies share a name, or the log cannot be opened,
            1 when the address cannot be bound.
            """
    )

    @Option(parsing: .upToNextOption, help: "Policy files, or directories searched for policies as lint does.")
    var policies: [String]

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 takes a free port.")
    var port = 8181

    @Option(help: "Append a JSON line per decision to this file (as check --log).")
    var log: String?

    @Option(name: .customLong("max-body"), help: "Largest accepted request body, in bytes.")
    var maxBody = 8 * 1024 * 1024

    @Option(name: .customLong("table-memory"), help: "Memory for tables stored with PUT /v1/tables/{sha256}, in bytes (each counts twice its body, 96 bytes a row, 256 a section and 1 KiB; least recently used go first).")
    var tableMemory = 64 * 1024 * 1024

    @Flag(help: "Also serve the playground at /playground, its endpoints and the client's example pages (off by default).")
    var playground = false

    func validate() throws {
        guard !policies.isEmpty else { throw ValidationError("give at least one policy file or directory with --policies") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard maxBody > 0 else { throw ValidationError("--max-body must be a positive number of bytes") }
        guard tableMemory >= 0 else { throw ValidationError("--table-memory must be a number of bytes (0 stores no tables)") }
    }

    func run() async throws {
        // Freed memory stays in the process for the next request (blocks up to 32 MiB from the
        // heap, up to 8 MiB kept free at the top of each of glibc's arenas, and 8 MiB still kept
        // when one is trimmed): glibc's defaults map and unmap a batch answer's buffers on every
        // request, and the page faults were a quarter of its time (BENCHMARKS.md, "The request
        // reader, again" and "Stored tables"; docs/SERVER.md).
        _ = reorder_server_keep_freed_memory(32 << 20, 8 << 20, 8 << 20)
        var configuration = ServerConfiguration(policies: policies)
        configuration.host = host
        configuration.port = port
        configuration.logPath = log
        configuration.maxBody = maxBody
        configuration.tableMemory = tableMemory
        configuration.playground = playground
        let (store, logFile): (PolicyStore, DecisionLogFile?)
        do {
            (store, logFile) = try DecisionServer.prepare(configuration)
        } catch {
            standardError("\(error)\n")
            throw ExitCode(2)
        }
        let logger = Logger(label: "reorder-policy-server")
        do {
            try await DecisionServer.run(configuration, store: store, log: logFile, logger: logger) { line in
                // Unbuffered, so a supervisor or test reading a pipe sees the line at once.
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch {
            standardError("error: \(error)\n")
            throw ExitCode(1)
        }
    }

    /// Usage errors exit with status 2, as the CLI's do.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var async = command as? AsyncParsableCommand {
                try await async.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode {
            terminate(code.rawValue)
        } catch {
            if exitCode(for: error) == .success { self.exit(withError: error) }
            standardError(fullMessage(for: error) + "\n")
            terminate(2)
        }
    }
}

private func standardError(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
}

/// The C library's `exit`, named apart from ArgumentParser's.
private func terminate(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}
#else
import Foundation

/// Built without the `Server` trait (the default, so that the library and the CLI never build
/// the web stack): the executable only says how to build the real one.
@main
enum ServerCommand {
    static func main() {
        FileHandle.standardError.write(Data("""
            reorder-policy-server was built without the Server trait, so it has no web stack.
            Build it with: swift build --traits Server --product reorder-policy-server

            """.utf8))
        exit(2)
    }
}
#endif
