#if Server  // the server is built with the `Server` trait only (Package.swift)
import SpannedYAML
import Foundation
import Hummingbird
import Logging
import NIOCore
import ReorderPolicy
import ServiceLifecycle

/// How to run the decision server (the flags of SPEC §9).
public struct ServerConfiguration: Sendable {
    /// Policy files, or directories searched for policies as `lint` does.
    public var policies: [String]
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port; 0 takes a free one.
    public var port = 8181
    /// Decision log file (JSON lines, as `check --log`), if any.
    public var logPath: String?
    /// Largest accepted request body.
    public var maxBody = 8 * 1024 * 1024
    /// `--table-memory`: the budget of the tables clients store (docs/SERVER.md, "Stored tables").
    public var tableMemory = 64 * 1024 * 1024
    /// `--playground`: serve the playground page, its endpoints and the example pages.
    public var playground = false
    /// How often the policy files are looked at again.
    public var reloadInterval: Duration = .milliseconds(500)

    /// Creates a configuration.
    public init(policies: [String]) { self.policies = policies }
}

/// Starts, serves and stops the decision server: loads the policies, listens, reloads changed
/// files, and on SIGTERM/SIGINT stops accepting, finishes requests in flight and closes the log.
public enum DecisionServer {
    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible {
        /// Policies with errors (or unreadable paths, or duplicate names): exit status 2.
        case policies([Diagnostic])
        /// The decision log cannot be opened: exit status 2.
        case log(String)

        public var description: String {
            switch self {
            case .policies(let ds):
                return ds.map { d in
                    let source = try? SourceFile.read(d.file)
                    return DiagnosticRenderer.text(d, source: source, style: .plain)
                }.joined(separator: "\n\n")
            case .log(let path):
                return "error: cannot open the decision log '\(path)' for appending (it must be a regular file)"
            }
        }
    }

    /// Loads the policies and opens the log; throws ``StartError`` when the server must not start.
    public static func prepare(_ configuration: ServerConfiguration) throws(StartError) -> (PolicyStore, DecisionLogFile?) {
        let store = PolicyStore(paths: configuration.policies)
        let outcome = store.reload()
        if !outcome.errors.isEmpty { throw .policies(outcome.errors) }
        // As `lint` (SPEC §9: "loads policies as lint does"): paths that hold no policy at all
        // are an error, not a server that answers 404 to everything.
        if store.snapshot.policies.isEmpty {
            throw .policies(configuration.policies.map { path in
                Diagnostic(code: .unreadable, message: "no policy files below '\(path)'", file: path, span: Span(at: .start),
                           help: "a policy file is a *.yaml or *.yml file with a top-level 'reorder-policy' key")
            })
        }
        var log: DecisionLogFile? = nil
        if let path = configuration.logPath {
            guard let file = DecisionLogFile(path: path) else { throw .log(path) }
            log = file
        }
        return (store, log)
    }

    /// Serves until SIGTERM or SIGINT; `started` receives the line announcing the address.
    public static func run(
        _ configuration: ServerConfiguration, store: PolicyStore, log: DecisionLogFile?,
        logger: Logger, started: @escaping @Sendable (String) -> Void
    ) async throws {
        let metrics = ServerMetrics()
        metrics.policiesLoaded(store.snapshot.policies.count)
        var responder = DecisionResponder(store: store, metrics: metrics, log: log, maxBody: configuration.maxBody, logger: logger,
                                          tables: TableStore(budget: configuration.tableMemory))
        responder.playground = configuration.playground
        responder.policyPaths = configuration.policies
        let host = configuration.host
        let app = Application(
            responder: responder,
            server: .http1(configuration: .init(additionalChannelHandlers: [MalformedRequestBody(), HTTP10CloseInstaller()], idleTimeout: .seconds(30))),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "reorder-policy-server"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let shown = host.contains(":") ? "[\(host)]" : host
                started("reorder-policy-server listening on http://\(shown):\(port) (\(store.snapshot.policies.count) policies)"
                    + (configuration.playground ? "; playground at http://\(shown):\(port)/playground" : ""))
            },
            logger: logger
        )
        let watcher = PolicyWatcher(store: store, metrics: metrics, interval: configuration.reloadInterval, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [app, watcher], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        defer { log?.close() }
        try await group.run()
    }
}

/// Polls the policy files and swaps in new versions; a broken edit keeps the old version served.
struct PolicyWatcher: Service {
    let store: PolicyStore
    let metrics: ServerMetrics
    let interval: Duration
    let logger: Logger

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                var standing: [Diagnostic] = []
                while true {
                    try await Task.sleep(for: interval)
                    let outcome = store.reload()
                    guard outcome.changed > 0 || outcome.errors.count != standing.count else { continue }
                    metrics.reloaded(failed: outcome.failed > 0)
                    metrics.policiesLoaded(store.snapshot.policies.count)
                    if outcome.errors.isEmpty {
                        logger.info("policies reloaded", metadata: ["changed": "\(outcome.changed)", "policies": "\(store.snapshot.policies.count)"])
                    } else {
                        for d in outcome.errors {
                            let what = d.code == .duplicatePolicyName
                                ? "policy not served: its name is served from another file"
                                : "policy not reloaded; the previous version stays served"
                            logger.error("\(what)", metadata: [
                                "file": "\(d.file)", "line": "\(d.span.start.line)", "column": "\(d.span.start.column)",
                                "code": "\(d.code.rawValue)", "message": "\(d.message)",
                            ])
                        }
                    }
                    standing = outcome.errors
                }
            }
        } catch is CancellationError {
            return
        }
    }
}
#endif
