// The public library: everything a service needs comes with `import ReorderPolicy`.
@_exported import ReorderEngine
@_exported public import SpannedYAML
