import Foundation
import Testing

@testable import QuireFixtureBuilder
@testable import QuireFixtures

/// A progress line without a bar (replication counts, a download): redrawn only when its text
/// changes, cleared for a message in its place, ended once.
@Suite struct TerminalProgressBarTests {
    @Test func aLineOfTextIsDrawnWhenItChangesClearedAndEndedOnce() {
        let recorder = TextLog()
        let line = TerminalProgressBar { recorder.add($0) }
        line.clear()
        line.finish()
        #expect(recorder.texts.isEmpty, "nothing drawn: nothing to clear or end")

        line.show("busy  pushed 1")
        line.show("busy  pushed 1")
        line.show("busy  pushed 2")
        line.clear()
        line.finish()
        line.finish()
        line.clear()
        #expect(
            recorder.texts == [
                "\rbusy  pushed 1\u{1b}[K", "\rbusy  pushed 2\u{1b}[K", "\r\u{1b}[K", "\n",
            ])
    }
}
