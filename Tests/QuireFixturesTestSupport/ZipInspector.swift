import Foundation

/// A minimal zip central-directory reader for asserting what the writer produced.
package struct ZipInspector {
    package struct Record: Equatable {
        package var name: String
        package var dosTime: UInt32
        package var localDosTime: UInt32
        package var externalAttributes: UInt32
        package var extra: [UInt8]
        package var flags: UInt16
    }

    package let records: [Record]
    package let bytes: [UInt8]

    package init(_ url: URL) throws {
        bytes = [UInt8](try Data(contentsOf: url))
        var end = bytes.count - 22
        while end >= 0, Self.le32(bytes, end) != 0x0605_4b50 { end -= 1 }
        guard end >= 0 else { throw CocoaError(.fileReadCorruptFile) }
        let count = Int(Self.le16(bytes, end + 10))
        var position = Int(Self.le32(bytes, end + 16))
        var records: [Record] = []
        for _ in 0..<count {
            let nameLength = Int(Self.le16(bytes, position + 28))
            let extraLength = Int(Self.le16(bytes, position + 30))
            let commentLength = Int(Self.le16(bytes, position + 32))
            let local = Int(Self.le32(bytes, position + 42))
            records.append(
                Record(
                    name: String(decoding: bytes[(position + 46)..<(position + 46 + nameLength)], as: UTF8.self),
                    dosTime: Self.le32(bytes, position + 12),
                    localDosTime: Self.le32(bytes, local + 10),
                    externalAttributes: Self.le32(bytes, position + 38),
                    extra: Array(bytes[(position + 46 + nameLength)..<(position + 46 + nameLength + extraLength)]),
                    flags: Self.le16(bytes, position + 8)))
            position += 46 + nameLength + extraLength + commentLength
        }
        self.records = records
    }

    package static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    package static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16
    }
}
