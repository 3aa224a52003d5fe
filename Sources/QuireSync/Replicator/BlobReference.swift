import Foundation
import Quire

/// A blob reference (`{"@type":"blob","digest":…}`) found in a body, with its JSON pointer.
struct BlobReference: Sendable, Equatable {
    /// JSON pointer of the reference, `/photo` or `/images/0`.
    let pointer: String
    let digest: String
    let length: Int64?
    let contentType: String?
    let properties: [String: JSONValue]

    /// Every blob reference in `body`, in pointer order.
    static func all(in body: [String: JSONValue]) -> [BlobReference] {
        var found: [BlobReference] = []
        collect(.object(body), pointer: "", into: &found)
        return found.sorted { $0.pointer < $1.pointer }
    }

    private static func collect(_ value: JSONValue, pointer: String, into found: inout [BlobReference]) {
        switch value {
        case .object(let members):
            if members["@type"] == .string("blob"), let digest = members["digest"]?.stringValue {
                found.append(
                    BlobReference(
                        pointer: pointer, digest: digest, length: members["length"]?.int64Value,
                        contentType: members["content_type"]?.stringValue, properties: members))
                return
            }
            for (key, member) in members {
                collect(member, pointer: pointer + "/" + escape(key), into: &found)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                collect(element, pointer: pointer + "/\(index)", into: &found)
            }
        default:
            return
        }
    }

    /// RFC 6901 escaping of one pointer segment.
    private static func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The attachment name Sync Gateway gives a blob: `blob_` and the pointer.
    var attachmentName: String { "blob_" + pointer }
}
