/// Renders `test` reports: each format is one file in Output/Test/ (``TestReport/formats``).
public enum TestRenderer {}

extension String {
    func indented(_ n: Int) -> String {
        let pad = String(repeating: " ", count: n)
        return split(separator: "\n", omittingEmptySubsequences: false).map { pad + $0 }.joined(separator: "\n")
    }
}
