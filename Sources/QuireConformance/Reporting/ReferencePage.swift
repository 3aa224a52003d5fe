import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `Specs/REFERENCE.md`: what a run of the specs against a Couchbase Lite test server found,
/// case by case (agrees, differs and why, not carried and the capability it needs), with the
/// server's name, version, platform and the run's date, written from the run's JUnit report
/// (`quire conform --reference-from REPORT.xml`).
///
/// Only cases that exist in the specs are named: a case of the report that is no longer in
/// `Specs/` is left out and counted, so the page never speaks of a case nobody can run.
package struct ReferencePage: Sendable {
    /// The page's file name in the specs directory.
    package static let pageFile = "REFERENCE.md"

    /// One case of the report.
    package struct Entry: Sendable, Equatable {
        /// The spec file, as the report names it.
        package var file: String
        /// The case's name.
        package var name: String
        /// `agrees`, `differs`, `differs (known)` (the spec explains it) or `not carried`.
        package var outcome: String
        /// Why it differs, or the capability it needs; empty when it agrees.
        package var detail: String
    }

    /// The report's cases that exist in the specs, in report order.
    package var entries: [Entry]
    /// The report's run-wide properties (`engine`, `server`, `server.version`, `server.platform` ...).
    package var properties: [String: String]
    /// The run's start (the report's `timestamp`).
    package var timestamp: String
    /// How many cases of the report are not in the specs any more.
    package var dropped: Int

    /// Reads a JUnit report of `quire conform` and keeps the cases that exist in `cases`.
    ///
    /// - Throws: ``SpecError``-free: a ``ReferencePageError`` when the report is not JUnit XML.
    package init(junit: Data, cases: [ConformanceCase]) throws {
        let reader = JUnitReader()
        let parser = XMLParser(data: junit)
        parser.delegate = reader
        guard parser.parse(), reader.sawTestSuites else {
            throw ReferencePageError(
                message:
                    "the report is not a JUnit XML report of quire conform: \(parser.parserError.map { "\($0)" } ?? "no <testsuites>")"
            )
        }
        var known: [String: Int] = [:]
        var notes: [String: String] = [:]
        for testCase in cases {
            known[testCase.file + "\u{0}" + testCase.name, default: 0] += 1
            if let note = testCase.reference { notes[testCase.file + "\u{0}" + testCase.name] = note }
        }
        var kept: [Entry] = []
        var dropped = 0
        for var entry in reader.entries {
            let key = entry.file + "\u{0}" + entry.name
            if let count = known[key], count > 0 {
                known[key] = count - 1
                // A difference the spec explains (`reference:`) is a known one: its reason first.
                if entry.outcome == "differs", let note = notes[key] {
                    entry.outcome = Self.knownDifference
                    entry.detail = "\(note) Found: \(entry.detail)"
                }
                kept.append(entry)
            } else {
                dropped += 1
            }
        }
        entries = kept
        properties = reader.properties
        timestamp = reader.timestamp
        self.dropped = dropped
    }

    /// The outcome of a differing case whose spec explains the difference (`reference:`).
    package static let knownDifference = "differs (known)"

    /// How many entries have `outcome`.
    package func count(_ outcome: String) -> Int { entries.filter { $0.outcome == outcome }.count }

    /// The Markdown page.
    package var markdown: String {
        let server = properties["server"] ?? "unknown"
        var page = "# Specs against a Couchbase Lite test server\n\n"
        page += "Written by `quire conform --reference-from REPORT.xml` from the JUnit report of\n"
        page += "`quire conform Specs --engine \(properties["engine"] ?? "testkit-plain"):URL --junit REPORT.xml`.\n\n"
        page += "- Server: reports itself as `\(server)` \(properties["server.version"] ?? "")"
        page += " (test-server API \(properties["server.apiVersion"] ?? "?"))\n"
        page += "- Platform: \(properties["server.platform"] ?? "unknown")\n"
        if let info = properties["server.additionalInfo"], !info.isEmpty { page += "- Build: \(info)\n" }
        page += "- Run: \(timestamp)\n\n"
        // `quire testserver --report-as` names a Couchbase Lite variant; its build line says Quire.
        if server == "quire" || (properties["server.additionalInfo"] ?? "").hasPrefix("Quire") {
            page += "This record is Quire's own run (`quire testserver`), which proves the page and the engine, "
            page += "not the specs: a run against a real Couchbase Lite test server replaces it, refreshed by hand "
            page += "when specs change (Quire's CI does not build Couchbase Lite).\n\n"
        } else {
            page += "Refreshed by hand when specs change: Quire's CI does not build Couchbase Lite.\n\n"
        }
        let total = entries.count
        func share(_ count: Int) -> String {
            total == 0 ? "0%" : String(format: "%.1f%%", Double(count) * 100 / Double(total))
        }
        let known = count(Self.knownDifference)
        let carried = count("agrees") + count("differs") + known
        page += "\(total) cases: \(carried) carried (\(share(carried))), \(count("agrees")) agree, "
        page += "\(count("differs") + known) differ (\(known) known, explained by their spec, "
        page += "\(count("differs")) unexplained), \(count("not carried")) not carried.\n"
        if dropped > 0 { page += "\(dropped) cases of the report are no longer in the specs and are left out.\n" }
        var capabilities: [String: Int] = [:]
        for entry in entries where entry.outcome == "not carried" {
            capabilities[Self.capability(entry.detail), default: 0] += 1
        }
        if !capabilities.isEmpty {
            page += "\nNot carried, by missing capability:\n\n| capability | cases |\n|---|---|\n"
            for (name, count) in capabilities.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
                page += "| \(Self.cell(name)) | \(count) |\n"
            }
        }
        var file = ""
        for entry in entries {
            if entry.file != file {
                file = entry.file
                page += "\n## \(file)\n\n| case | outcome | detail |\n|---|---|---|\n"
            }
            page += "| \(Self.cell(entry.name)) | \(entry.outcome) | \(Self.cell(entry.detail)) |\n"
        }
        return page
    }

    /// The capability a skip message names (`needs capability 'x': ...`), else the message.
    static func capability(_ detail: String) -> String {
        guard let start = detail.range(of: "needs capability '"),
            let end = detail[start.upperBound...].firstIndex(of: "'")
        else { return detail }
        return String(detail[start.upperBound..<end])
    }

    /// Text for a table cell: one line (a line break reads `\n`), backslashes and pipes
    /// escaped, at most 300 characters.
    static func cell(_ text: String) -> String {
        var line = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "|", with: "\\|")
        if line.count > 300 { line = String(line.prefix(299)) + "…" }
        return line
    }

    /// The case names a page lists, by file (for checking a page against the specs).
    package static func namedCases(in markdown: String) -> [(file: String, name: String)] {
        var file = ""
        var named: [(file: String, name: String)] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                file = String(line.dropFirst(3))
            } else if !file.isEmpty, line.hasPrefix("| "), !line.hasPrefix("| case |") {
                // The first cell, up to the first unescaped pipe.
                var name = ""
                var escaped = false
                for character in line.dropFirst(2) {
                    if escaped {
                        name.append(character == "n" ? "\n" : character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "|" {
                        break
                    } else {
                        name.append(character)
                    }
                }
                named.append((file, String(name.dropLast())))
            }
        }
        return named
    }
}

/// A report `--reference-from` cannot read.
package struct ReferencePageError: Error, CustomStringConvertible {
    /// What was wrong.
    package let message: String
    /// The message.
    package var description: String { message }
}

/// Collects a JUnit report's test cases and run-wide properties.
private final class JUnitReader: NSObject, XMLParserDelegate {
    var entries: [ReferencePage.Entry] = []
    var properties: [String: String] = [:]
    var timestamp = ""
    var sawTestSuites = false
    private var current: ReferencePage.Entry?
    private var depth = 0
    private var caseDepth = 0
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        depth += 1
        switch element {
        case "testsuites":
            sawTestSuites = true
            timestamp = attributes["timestamp"] ?? ""
        case "property" where current == nil:
            if let name = attributes["name"], let value = attributes["value"] { properties[name] = value }
        case "testcase":
            current = ReferencePage.Entry(
                file: attributes["file"] ?? attributes["classname"] ?? "", name: attributes["name"] ?? "",
                outcome: "agrees", detail: "")
            caseDepth = depth
        case "skipped":
            current?.outcome = "not carried"
            current?.detail = attributes["message"] ?? ""
        case "failure", "error":
            current?.outcome = "differs"
            current?.detail = attributes["message"] ?? ""
            text = ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "failure" || element == "error", current != nil {
            // The details say what was expected and what the server did.
            let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            let said = lines.filter { $0.hasPrefix("expected:") || $0.hasPrefix("actual:") }
            if !said.isEmpty { current?.detail += " — " + said.joined(separator: "; ") }
        }
        if element == "testcase", depth == caseDepth, let entry = current {
            entries.append(entry)
            current = nil
        }
        depth -= 1
    }
}
