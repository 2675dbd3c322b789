extension String {
    /// The text with every character that could change what a terminal shows escaped as
    /// `\u{…}`: control characters (also line breaks and tabs, which would forge lines of
    /// output), DEL, the C1 controls, and the bidirectional overrides of "Trojan Source".
    /// Text renderers pass every user-written string (ids, names, messages, keys, paths)
    /// through this; JSON output escapes the JSON way instead.
    public var visible: String {
        // Most text has nothing to escape: return it without building a copy.
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if Self.needsEscape(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
