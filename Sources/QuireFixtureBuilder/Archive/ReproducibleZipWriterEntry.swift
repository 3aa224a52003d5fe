import Foundation
import QuireFixtures

extension ReproducibleZipWriter {
    /// One thing to put in the archive: a path inside it and where its bytes come from.
    public struct Entry: Sendable, Equatable {
        /// Where an entry's content comes from.
        public enum Content: Sendable, Equatable {
            /// A regular file on disk, streamed when the archive is written.
            case file(URL)
            /// Bytes held in memory (small things such as a manifest).
            case bytes(Data)
            /// A folder.
            case directory
        }

        /// The relative path inside the archive, `/`-separated.
        public var path: String
        /// Where the bytes come from.
        public var content: Content

        /// Makes an entry.
        public init(path: String, content: Content) {
            self.path = path
            self.content = content
        }

        /// A regular file copied from `url`.
        public static func file(_ path: String, from url: URL) -> Entry {
            Entry(path: path, content: .file(url))
        }

        /// A regular file holding `data`.
        public static func bytes(_ path: String, _ data: Data) -> Entry {
            Entry(path: path, content: .bytes(data))
        }

        /// A folder.
        public static func directory(_ path: String) -> Entry {
            Entry(path: path, content: .directory)
        }

        var isDirectory: Bool { content == .directory }
    }
}
