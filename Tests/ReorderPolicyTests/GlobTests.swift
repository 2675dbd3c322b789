import Testing
import ReorderPolicy

/// The config's glob patterns (docs/CONFIG.md): `*`, `**`, `?`, `[...]`, names anywhere, folders.
@Suite struct GlobTests {
    @Test(arguments: [
        ("*.yaml", "board.yaml", true),
        ("*.yaml", "policies/board.yaml", true),          // a name pattern matches in any folder
        ("*.yaml", "policies/board.yml", false),
        ("policies/*.yaml", "policies/board.yaml", true),
        ("policies/*.yaml", "policies/sub/board.yaml", false), // `*` stops at `/`
        ("policies/**/*.yaml", "policies/board.yaml", true),   // `**` may be no folder at all
        ("policies/**/*.yaml", "policies/a/b/board.yaml", true),
        ("Tests/**/Fixtures/", "Tests/CLITests/Fixtures/broken.yaml", true), // a folder: everything below it
        ("Tests/**/Fixtures/", "Tests/CLITests/Golden/broken.yaml", false),
        ("Fixtures", "Tests/CLITests/Fixtures/broken.yaml", true),
        (".build*/", ".build-fuzz/x/y.yaml", true),
        ("board.y?ml", "board.yaml", true),
        ("board.y?ml", "board.yml", false),
        ("[bc]oard.yaml", "coard.yaml", true),
        ("[!bc]oard.yaml", "board.yaml", false),
        ("[a-c]oard.yaml", "board.yaml", true),
        ("./policies/", "policies/board.yaml", true),
        ("policies", "other/policies.yaml", false),
        ("*a*a*a*a*a*b", String(repeating: "a", count: 5_000), false), // no exponential backtracking
    ])
    func matches(_ pattern: String, _ path: String, _ expected: Bool) throws {
        let glob = try #require(Glob(pattern))
        #expect(glob.matches(path) == expected)
    }

    @Test(arguments: ["", "/", "[abc", "a/[b/c"])
    func invalid(_ pattern: String) {
        #expect(Glob(pattern) == nil)
    }
}
