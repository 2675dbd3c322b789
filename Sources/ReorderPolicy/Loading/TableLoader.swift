import SpannedYAML
/// Loads table files (SPEC §3).
public enum TableLoader {
    /// The table at `path`, or the diagnostics that explain why not.
    public static func load(path: String) -> (table: Table?, source: SourceFile?, diagnostics: [Diagnostic]) {
        let source: SourceFile
        do {
            source = try SourceFile.read(path)
        } catch {
            return (nil, nil, [error.diagnostic])
        }
        let (table, diagnostics) = load(source)
        return (table, source, diagnostics)
    }

    /// The table in `source`, or the diagnostics that explain why not.
    public static func load(_ source: SourceFile) -> (Table?, [Diagnostic]) {
        let parsed = YAMLDocument.parse(source.bytes, file: source.path)
        guard let root = parsed.root, parsed.diagnostics.isEmpty else { return (nil, parsed.diagnostics) }
        var decoder = TableDecoder(d: NodeDecoder(file: source.path))
        let table = decoder.table(root)
        let diagnostics = Diagnostic.sorted(decoder.d.diagnostics)
        return (diagnostics.isEmpty ? table : nil, diagnostics)
    }

    /// A table from YAML or JSON text.
    public static func load(text: String, path: String = "<table>") -> (Table?, [Diagnostic]) {
        load(SourceFile(path: path, text: text))
    }
}
