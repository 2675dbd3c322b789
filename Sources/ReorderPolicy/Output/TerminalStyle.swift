#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ANSI styling that is on only for a terminal, and never when `NO_COLOR` is set.
public struct TerminalStyle: Sendable {
    /// Whether escape codes are written.
    public var enabled: Bool

    /// Creates a style.
    public init(enabled: Bool) { self.enabled = enabled }

    /// Plain text, for files, pipes and golden tests.
    public static let plain = TerminalStyle(enabled: false)

    /// When to colour: `auto` on a terminal only (never with `NO_COLOR` set, to anything, or
    /// with `TERM=dumb`), or `always` / `never` (`--color`).
    public enum Choice: String, Sendable, CaseIterable {
        case auto, always, never
    }

    /// The style for standard output under `choice`.
    public static func forStandardOutput(_ choice: Choice = .auto) -> TerminalStyle {
        forDescriptor(1, choice)
    }

    /// The style for standard error under `choice`.
    public static func forStandardError(_ choice: Choice = .auto) -> TerminalStyle {
        forDescriptor(2, choice)
    }

    private static func forDescriptor(_ fd: Int32, _ choice: Choice) -> TerminalStyle {
        switch choice {
        case .always: return TerminalStyle(enabled: true)
        case .never: return TerminalStyle(enabled: false)
        case .auto:
            let dumb = getenv("TERM").map { String(cString: $0) == "dumb" } ?? false
            return TerminalStyle(enabled: isatty(fd) == 1 && getenv("NO_COLOR") == nil && !dumb)
        }
    }

    private func wrap(_ code: String, _ text: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    // Styles; each returns `s` unchanged when colour is off.
    /// Bold.
    public func bold(_ s: String) -> String { wrap("1", s) }
    public func dim(_ s: String) -> String { wrap("2", s) }
    public func red(_ s: String) -> String { wrap("1;31", s) }
    public func green(_ s: String) -> String { wrap("32", s) }
    public func yellow(_ s: String) -> String { wrap("33", s) }
    public func blue(_ s: String) -> String { wrap("34", s) }
    public func cyan(_ s: String) -> String { wrap("36", s) }
    public func magenta(_ s: String) -> String { wrap("35", s) }
}
