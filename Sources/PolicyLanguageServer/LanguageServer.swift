import Dispatch
import Foundation
import Synchronization
import JSONRPC
import ReorderEngine
import ReorderPolicy
import SpannedYAML

/// `reorder-policy lsp`: a Language Server Protocol 3.17 server over stdio (docs/EDITORS.md).
///
/// Messages are read and answered one at a time on the calling thread; every request is
/// answered before the next message is read (so a `$/cancelRequest` never finds one pending
/// and is ignored, as the protocol allows). Diagnostics come twice per edit: at once, what
/// loading finds (syntax, keys, types, the test tables), and then, from a background queue,
/// `lint`'s full set with the analysis. An analysis whose text has changed since is dropped
/// before it starts, and its result is never published over a newer one.
public final class LanguageServer: Sendable {
    private let writer: FrameWriter
    private let state = Mutex(State())
    private let analysisQueue = DispatchQueue(label: "reorder-policy.lsp.analysis")
    private let version: String

    private struct State: Sendable {
        var initialized = false
        var shuttingDown = false
        var documents: [String: TextDocument] = [:]
        /// Per document, a count of the texts linted: an analysis publishes only while its
        /// text is the last one.
        var generation: [String: Int] = [:]
        /// Per document, lint's last findings (the analysis's once it has run): what hover shows,
        /// without analysing on the request's thread.
        var findings: [String: [Diagnostic]] = [:]
        /// Per document, the tables of its tests when it last loaded with tests: what completion
        /// offers words from while the text being typed does not parse.
        var tables: [String: [Table]] = [:]
        /// Per document, the token of its queued or running analysis: cancelled when a newer
        /// text comes, or the document closes, or the server shuts down.
        var analyses: [String: AnalysisCancellation] = [:]
    }

    /// A server that writes through `writer`; `version` is the tool's.
    public init(writer: FrameWriter, version: String) {
        self.writer = writer
        self.version = version
    }

    /// Serves `input` until `exit` or its end. Returns the exit status: 0 after `shutdown`
    /// then `exit`, 1 when the input ended or `exit` came without `shutdown`.
    public func serve(_ input: inout FrameReader) -> Int32 {
        while true {
            switch input.next() {
            case .end:
                analysisQueue.sync {}
                return 1
            case .malformed(let problem):
                writer.send(Outgoing.error(id: nil, ResponseError(.parseError, "unreadable frame: \(problem)")))
            case .oversized(let problem):
                writer.send(Outgoing.error(id: nil, ResponseError(.invalidRequest, "message skipped: \(problem)")))
            case .message(let body):
                switch IncomingMessage.decode(body) {
                case .failure(let failure):
                    writer.send(Outgoing.error(id: failure.id, failure.error))
                case .success(let message):
                    if message.method == "exit" {
                        analysisQueue.sync {}
                        return state.withLock { $0.shuttingDown } ? 0 : 1
                    }
                    handle(message)
                }
            }
        }
    }

    /// Serves standard input and output.
    public static func serveStandardIO(version: String) -> Int32 {
        let server = LanguageServer(writer: FrameWriter(handle: .standardOutput), version: version)
        var reader = FrameReader(handle: .standardInput)
        return server.serve(&reader)
    }

    // MARK: Dispatch

    private func handle(_ message: IncomingMessage) {
        guard let method = message.method else { return }  // a response: this server asks nothing
        let id = message.id
        func answer<R: Encodable>(_ work: () throws(ResponseError) -> R?) {
            guard let id else { return }
            do {
                writer.send(Outgoing.response(id: id, result: try work()))
            } catch {
                writer.send(Outgoing.error(id: id, error))
            }
        }
        let (initialized, shuttingDown) = state.withLock { ($0.initialized, $0.shuttingDown) }
        if method == "initialize" {
            answer { () throws(ResponseError) -> InitializeResult? in
                if initialized { throw ResponseError(.invalidRequest, "initialize was already sent") }
                _ = try message.params(InitializeParams.self)
                state.withLock { $0.initialized = true }
                return InitializeResult(capabilities: ServerCapabilities(), serverInfo: ServerInfo(name: "reorder-policy", version: version))
            }
            return
        }
        guard initialized else {
            if id != nil { writer.send(Outgoing.error(id: id, ResponseError(.serverNotInitialized, "the server is not initialized: send 'initialize' first"))) }
            return
        }
        if shuttingDown, id != nil {
            writer.send(Outgoing.error(id: id, ResponseError(.invalidRequest, "the server is shutting down: only 'exit' is accepted")))
            return
        }
        switch method {
        case "initialized", "$/cancelRequest", "$/setTrace", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles":
            return
        case "shutdown":
            // Queued analyses are dropped (each checks its generation before it starts).
            state.withLock { s in
                s.shuttingDown = true
                for uri in s.generation.keys { s.generation[uri, default: 0] += 1 }
                for token in s.analyses.values { token.cancel() }
            }
            answer { () throws(ResponseError) -> Int? in nil }
        case "textDocument/didOpen":
            guard let p = try? message.params(DidOpenParams.self) else { return }
            let document = TextDocument(uri: p.textDocument.uri, version: p.textDocument.version, text: p.textDocument.text)
            state.withLock { $0.documents[document.uri] = document }
            lint(document)
        case "textDocument/didChange":
            guard let p = try? message.params(DidChangeParams.self) else { return }
            let changed: TextDocument? = state.withLock { s in
                guard var document = s.documents[p.textDocument.uri] else { return nil }
                for change in p.contentChanges { document.apply(change) }
                document.version = p.textDocument.version ?? document.version &+ 1
                s.documents[document.uri] = document
                return document
            }
            if let changed { lint(changed) }
        case "textDocument/didSave":
            guard let p = try? message.params(DocumentParams.self), let document = self.document(p.textDocument.uri) else { return }
            lint(document)
        case "textDocument/didClose":
            guard let p = try? message.params(DocumentParams.self) else { return }
            state.withLock { s in
                s.documents[p.textDocument.uri] = nil
                s.findings[p.textDocument.uri] = nil
                s.tables[p.textDocument.uri] = nil
                s.analyses.removeValue(forKey: p.textDocument.uri)?.cancel()
                s.generation[p.textDocument.uri, default: 0] += 1
            }
            publish(PublishDiagnosticsParams(uri: p.textDocument.uri, version: nil, diagnostics: []))
        case "textDocument/hover":
            answer { () throws(ResponseError) -> Hover? in
                let p = try message.params(PositionParams.self)
                let findings = state.withLock { $0.findings[p.textDocument.uri] ?? [] }
                return Features.hover(try open(p.textDocument.uri), at: p.position, findings: findings)
            }
        case "textDocument/completion":
            answer { () throws(ResponseError) -> CompletionList? in
                let p = try message.params(PositionParams.self)
                let tables = state.withLock { $0.tables[p.textDocument.uri] ?? [] }
                return Features.completion(try open(p.textDocument.uri), at: p.position, lastTables: tables)
            }
        case "textDocument/formatting":
            answer { () throws(ResponseError) -> [TextEdit]? in
                let p = try message.params(DocumentParams.self)
                return Features.formatting(try open(p.textDocument.uri))
            }
        case "textDocument/documentSymbol":
            answer { () throws(ResponseError) -> [DocumentSymbol]? in
                let p = try message.params(DocumentParams.self)
                return Features.symbols(try open(p.textDocument.uri))
            }
        case "textDocument/definition":
            answer { () throws(ResponseError) -> Location? in
                let p = try message.params(PositionParams.self)
                return Features.definition(try open(p.textDocument.uri), at: p.position)
            }
        case "textDocument/codeAction":
            answer { () throws(ResponseError) -> [CodeAction]? in
                let p = try message.params(CodeActionParams.self)
                return Features.codeActions(try open(p.textDocument.uri), p)
            }
        default:
            if id != nil {
                writer.send(Outgoing.error(id: id, ResponseError(.methodNotFound, "'\(method)' is not a method this server knows")))
            }
            // Unknown notifications (`$/…` and others) are ignored, as the protocol says.
        }
    }

    private func document(_ uri: String) -> TextDocument? {
        state.withLock { $0.documents[uri] }
    }

    private func open(_ uri: String) throws(ResponseError) -> TextDocument {
        guard let document = document(uri) else { throw ResponseError(.invalidParams, "'\(uri)' is not open: send textDocument/didOpen first") }
        return document
    }

    // MARK: Diagnostics

    private func publish(_ params: PublishDiagnosticsParams) {
        writer.send(Outgoing.notification("textDocument/publishDiagnostics", params))
    }

    /// Publishes what loading finds at once, then queues the analysis.
    private func lint(_ document: TextDocument) {
        let token = AnalysisCancellation()
        let generation = state.withLock { s in
            s.generation[document.uri, default: 0] += 1
            s.analyses[document.uri]?.cancel()
            s.analyses[document.uri] = token
            return s.generation[document.uri] ?? 0
        }
        // YAML that is plainly something else (top-level keys, none of them a policy's) gets
        // no diagnostics: editors attach the server to every YAML file.
        guard Features.mayBePolicy(document.text) else {
            state.withLock { $0.findings[document.uri] = nil }
            publish(PublishDiagnosticsParams(uri: document.uri, version: document.version, diagnostics: []))
            return
        }
        let path = Features.path(of: document.uri)
        let config = Features.config(for: path)
        let quick = Linter.lint(text: document.text, path: path, config: config, analysis: nil)
        let tables = PolicyTestRunner.tables(of: quick).map(\.table)
        state.withLock { s in
            s.findings[document.uri] = quick.diagnostics
            if !tables.isEmpty { s.tables[document.uri] = tables }
        }
        publish(PublishDiagnosticsParams(uri: document.uri, version: document.version, diagnostics: Features.diagnostics(quick.diagnostics, in: document)))
        // As `lint`: the analysis runs when loading found no error (a test table's error, or a
        // severity the config raises, comes after it and does not stop it).
        guard !PolicyLoader.load(SourceFile(path: path, text: document.text)).hasErrors, config?.analysisEnabled ?? true else { return }
        let bound = config?.analysisBound ?? .standard
        let budget = config?.analysisBudget ?? PolicyAnalyzer.defaultBudget
        analysisQueue.async { [self] in
            // A newer text is queued behind this one: skip it.
            guard state.withLock({ $0.generation[document.uri] == generation }) else { return }
            let full = AnalysisCancellation.$current.withValue(token) {
                Linter.lint(text: document.text, path: path, config: config, analysis: { PolicyAnalyzer.analyze($0, bound: bound, budget: budget) })
            }
            if token.isCancelled { return }
            let params = PublishDiagnosticsParams(uri: document.uri, version: document.version, diagnostics: Features.diagnostics(full.diagnostics, in: document))
            // Published only while the text is the one analysed (checked and sent as one step).
            state.withLock { s in
                if s.generation[document.uri] == generation {
                    s.findings[document.uri] = full.diagnostics
                    publish(params)
                }
            }
        }
    }
}
