/// `test --format junit`: JUnit XML for CI test reports.
public struct TestJUnitFormat: ReportFormat {
    public let name = "junit"
    public init() {}
    public func render(_ report: TestReport, _ context: RenderContext) -> String { TestRenderer.junit(report) }
}

extension TestRenderer {
    /// JUnit XML: one testsuite per policy file, one testcase per test (and one `load policy`
    /// testcase in error for a policy that does not load). The root's totals are the sums of
    /// the suites'. Only attributes of the common JUnit schema are written; a test's location
    /// is the first line of its failure or error text.
    public static func junit(_ report: TestReport) -> String {
        struct Suite { var tests = 0, failures = 0, errors = 0, body = "" }
        var suites: [(name: String, suite: Suite)] = []
        for file in report.files {
            let path = file.document.source.path
            let name = file.document.policy?.name ?? path
            var suite = Suite()
            if file.document.hasErrors {
                let body = file.document.diagnostics.filter { $0.severity == .error }
                    .map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }.joined(separator: "\n")
                suite.tests += 1
                suite.errors += 1
                suite.body += "    <testcase name=\"load policy\" classname=\"\(attribute(name))\">\n"
                suite.body += "      <error message=\"the policy has errors\" type=\"policy-error\">\(xml(body))</error>\n"
                suite.body += "    </testcase>\n"
            }
            for o in file.outcomes {
                suite.tests += 1
                suite.body += "    <testcase name=\"\(attribute(o.test.name))\" classname=\"\(attribute(name))\""
                if o.passed {
                    suite.body += "/>\n"
                    continue
                }
                suite.body += ">\n"
                let location = "\(path):\(o.test.span.start.line):\(o.test.span.start.column)"
                if !o.errors.isEmpty {
                    suite.errors += 1
                    let body = o.errors.map { "\($0.file):\($0.span.start.line):\($0.span.start.column): error[\($0.code)]: \($0.message)" }
                    suite.body += "      <error message=\"\(attribute(o.errors[0].message))\" type=\"table-error\">\(xml(([location] + body).joined(separator: "\n")))</error>\n"
                } else {
                    suite.failures += 1
                    var body = [location, "expected: " + expected(o.test), "actual:   " + actual(o)] + o.mismatches
                    if let d = o.decision { body += DecisionText.lines(d, style: .plain) }
                    suite.body += "      <failure message=\"\(attribute(o.mismatches.joined(separator: "; ")))\" type=\"mismatch\">\(xml(body.joined(separator: "\n")))</failure>\n"
                }
                suite.body += "    </testcase>\n"
            }
            suites.append((path, suite))
        }
        let tests = suites.reduce(0) { $0 + $1.suite.tests }, failures = suites.reduce(0) { $0 + $1.suite.failures }
        let errors = suites.reduce(0) { $0 + $1.suite.errors } + report.unreadable.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"reorder-policy\" tests=\"\(tests + report.unreadable.count)\" failures=\"\(failures)\" errors=\"\(errors)\">\n"
        for (name, suite) in suites {
            out += "  <testsuite name=\"\(attribute(name))\" tests=\"\(suite.tests)\" failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\">\n"
            out += suite.body
            out += "  </testsuite>\n"
        }
        for d in report.unreadable {
            // A path that could not be read is a suite with one test in error, not an empty document.
            out += "  <testsuite name=\"\(attribute(d.file))\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n"
            out += "    <testcase name=\"read policy\" classname=\"\(attribute(d.file))\">\n"
            out += "      <error message=\"\(attribute(d.message))\" type=\"\(attribute(d.code.rawValue))\">\(xml("\(d.file):\(d.span.start.line):\(d.span.start.column): error[\(d.code)]: \(d.message)"))</error>\n"
            out += "    </testcase>\n  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// Text for an attribute value: as ``xml(_:)``, with line breaks and tabs as character
    /// references (a raw one would be normalised to a space, or split a name in two).
    static func attribute(_ s: String) -> String {
        var out = ""
        for scalar in xml(s).unicodeScalars {
            switch scalar {
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func xml(_ s: String) -> String {
        var out = ""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 forbids most control characters even as references.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += "\u{FFFD}" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
