import JSONRPC

// The LSP 3.17 shapes this server reads and writes, one Codable type per shape (only the
// fields it uses; JSONDecoder ignores the rest).

struct Position: Codable, Hashable, Sendable {
    /// 0-based line.
    var line: Int
    /// 0-based offset in UTF-16 code units (the protocol's default position encoding).
    var character: Int

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// Read clamped to the protocol's range (`uinteger`: 0 to 2³¹ − 1), so that no arithmetic
    /// on a client's position can overflow or index below zero.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func clamped(_ key: CodingKeys) throws -> Int { min(max(try c.decode(Int.self, forKey: key), 0), Int(Int32.max)) }
        line = try clamped(.line)
        character = try clamped(.character)
    }

    private enum CodingKeys: String, CodingKey { case line, character }
}

struct Range: Codable, Hashable, Sendable {
    var start: Position
    var end: Position
}

struct Location: Codable, Sendable {
    var uri: String
    var range: Range
}

struct TextDocumentIdentifier: Codable, Sendable {
    var uri: String
}

struct TextDocumentItem: Codable, Sendable {
    var uri: String
    var languageId: String?
    var version: Int
    var text: String
}

struct VersionedTextDocumentIdentifier: Codable, Sendable {
    var uri: String
    var version: Int?
}

struct DidOpenParams: Codable, Sendable {
    var textDocument: TextDocumentItem
}

struct ContentChange: Codable, Sendable {
    /// Absent: the whole text.
    var range: Range?
    var text: String
}

struct DidChangeParams: Codable, Sendable {
    var textDocument: VersionedTextDocumentIdentifier
    var contentChanges: [ContentChange]
}

struct DocumentParams: Codable, Sendable {
    var textDocument: TextDocumentIdentifier
}

struct PositionParams: Codable, Sendable {
    var textDocument: TextDocumentIdentifier
    var position: Position
}

struct CancelParams: Codable, Sendable {
    var id: RequestID
}

struct InitializeParams: Codable, Sendable {
    var processId: Int?
    var rootUri: String?
}

struct ServerInfo: Codable, Sendable {
    var name: String
    var version: String
}

struct SaveOptions: Codable, Sendable {
    var includeText: Bool
}

struct TextDocumentSyncOptions: Codable, Sendable {
    var openClose: Bool
    /// 2: incremental.
    var change: Int
    var save: SaveOptions
}

struct CompletionOptions: Codable, Sendable {
    var triggerCharacters: [String]
}

struct ServerCapabilities: Codable, Sendable {
    var positionEncoding = "utf-16"
    var textDocumentSync = TextDocumentSyncOptions(openClose: true, change: 2, save: SaveOptions(includeText: false))
    var hoverProvider = true
    var completionProvider = CompletionOptions(triggerCharacters: [" ", ":", "-"])
    var documentFormattingProvider = true
    var documentSymbolProvider = true
    var definitionProvider = true
    var codeActionProvider = true
}

struct InitializeResult: Codable, Sendable {
    var capabilities: ServerCapabilities
    var serverInfo: ServerInfo
}

struct DiagnosticRelatedInformation: Codable, Sendable {
    var location: Location
    var message: String
}

struct LSPDiagnostic: Codable, Sendable {
    var range: Range
    /// 1 error, 2 warning.
    var severity: Int
    var code: String
    var source = "reorder-policy"
    var message: String
    var relatedInformation: [DiagnosticRelatedInformation]?
}

struct PublishDiagnosticsParams: Codable, Sendable {
    var uri: String
    var version: Int?
    var diagnostics: [LSPDiagnostic]
}

struct MarkupContent: Codable, Sendable {
    var kind = "markdown"
    var value: String
}

struct Hover: Codable, Sendable {
    var contents: MarkupContent
    var range: Range?
}

struct CompletionItem: Codable, Sendable {
    var label: String
    /// 14 keyword, 12 value, 10 property, 21 constant.
    var kind: Int
    var detail: String?
    var documentation: MarkupContent?
}

struct CompletionList: Codable, Sendable {
    var isIncomplete = false
    var items: [CompletionItem]
}

struct TextEdit: Codable, Sendable {
    var range: Range
    var newText: String
}

struct DocumentSymbol: Codable, Sendable {
    var name: String
    var detail: String?
    /// 12 function (a rule), 6 method (a test), 2 module (a list of them).
    var kind: Int
    var range: Range
    var selectionRange: Range
    var children: [DocumentSymbol]?
}

struct CodeActionContext: Codable, Sendable {
    var diagnostics: [LSPDiagnostic]
}

struct CodeActionParams: Codable, Sendable {
    var textDocument: TextDocumentIdentifier
    var range: Range
    var context: CodeActionContext
}

struct WorkspaceEdit: Codable, Sendable {
    var changes: [String: [TextEdit]]
}

struct CodeAction: Codable, Sendable {
    var title: String
    var kind = "quickfix"
    var diagnostics: [LSPDiagnostic]?
    var edit: WorkspaceEdit
}
