import SpannedYAML
import ReorderPolicy

/// A test input with the expected diagnostic position marked by `»` (removed before parsing),
/// so tests say where a finding belongs instead of hard-coding columns.
struct MarkedSource: Sendable {
    let text: String
    let line: Int
    let column: Int

    init(_ marked: String) {
        var line = 1, column = 1, found: (Int, Int)? = nil
        var text = ""
        for ch in marked {
            if ch == "»" {
                found = (line, column)
                continue
            }
            text.append(ch)
            if ch == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        self.text = text
        (self.line, self.column) = found ?? (1, 1)
    }
}

/// A broken policy and the code its first diagnostic must have.
struct BrokenPolicy: CustomTestStringConvertible, Sendable {
    let name: String
    let code: DiagnosticCode
    let source: MarkedSource
    var messageContains: String? = nil

    init(_ name: String, _ code: DiagnosticCode, _ marked: String, message: String? = nil) {
        self.name = name
        self.code = code
        self.source = MarkedSource(marked)
        self.messageContains = message
    }

    var testDescription: String { "\(code): \(name)" }
}

import Testing
