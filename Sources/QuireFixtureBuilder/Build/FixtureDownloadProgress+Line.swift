import Foundation
import QuireFixtures

extension FixtureDownloadProgress {
    /// The progress as `quire fixture install` shows it on a terminal:
    /// `downloading  42%  12.5 MiB`, with resumes and retries when there were any.
    package var line: String {
        let mebibytes = String(format: "%.1f MiB", Double(receivedBytes) / 1_048_576)
        let percent = fraction.map { "\(Int($0 * 100))%  " } ?? ""
        return "downloading  \(percent)\(mebibytes)" + (resumes > 0 ? "  (resumed \(resumes)×)" : "")
            + (retries > 0 ? "  (tried again \(retries)×)" : "")
    }
}
