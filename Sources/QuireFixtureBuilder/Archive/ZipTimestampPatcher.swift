import Quire
import QuireFixtures

/// Rewrites the MS-DOS modification time of every entry in a finished zip, in both the
/// central directory and each local header, leaving every other byte alone.
///
/// It walks the structure from the end-of-central-directory record (Zip64 included), so it
/// relies on nothing about how the archive was written except that it is a valid zip.
enum ZipTimestampPatcher {
    private static let endOfCentralDirectory: UInt32 = 0x0605_4b50
    private static let zip64Locator: UInt32 = 0x0706_4b50
    private static let zip64EndOfCentralDirectory: UInt32 = 0x0606_4b50
    private static let centralHeader: UInt32 = 0x0201_4b50
    private static let localHeader: UInt32 = 0x0403_4b50

    /// Stamps `time` on every entry of the zip at `path`.
    static func stamp(archiveAt path: String, with time: DOSDateTime) throws {
        let file = try PosixFile.openForUpdate(path)
        let directory = try locateCentralDirectory(file)
        var records = try file.read(count: directory.size, at: directory.offset)
        var position = 0
        var seen: UInt64 = 0
        while position < records.count {
            guard position + 46 <= records.count, le32(records, position) == centralHeader else {
                throw corrupt(path, "central directory record \(seen) is malformed")
            }
            let nameLength = Int(le16(records, position + 28))
            let extraLength = Int(le16(records, position + 30))
            let commentLength = Int(le16(records, position + 32))
            let end = position + 46 + nameLength + extraLength + commentLength
            guard end <= records.count else { throw corrupt(path, "central directory record \(seen) overruns") }
            let localOffset = try localHeaderOffset(
                records, record: position, nameLength: nameLength, extraLength: extraLength, path: path)
            let local = try file.read(count: 4, at: localOffset)
            guard le32(local, 0) == localHeader else {
                throw corrupt(path, "central directory record \(seen) points at no local header")
            }
            try file.write(bytes32(time.packed), at: localOffset + 10)
            records.replaceSubrange(position + 12..<position + 16, with: bytes32(time.packed))
            position = end
            seen += 1
        }
        guard seen == directory.count else {
            throw corrupt(path, "central directory holds \(seen) records, its end record says \(directory.count)")
        }
        try file.write(records, at: directory.offset)
        try file.close()
    }

    private static func locateCentralDirectory(_ file: PosixFile) throws -> (offset: Int64, size: Int, count: UInt64) {
        let fileSize = try file.size()
        let tailLength = Int(min(fileSize, 22 + 65_535))
        let tailStart = fileSize - Int64(tailLength)
        let tail = try file.read(count: tailLength, at: tailStart)
        var index = tailLength - 22
        while index >= 0, le32(tail, index) != endOfCentralDirectory { index -= 1 }
        guard index >= 0 else { throw corrupt(file.path, "has no end-of-central-directory record") }
        var count = UInt64(le16(tail, index + 10))
        var size = UInt64(le32(tail, index + 12))
        var offset = UInt64(le32(tail, index + 16))
        if count == 0xffff || size == 0xffff_ffff || offset == 0xffff_ffff {
            let locatorPosition = tailStart + Int64(index) - 20
            guard locatorPosition >= 0 else { throw corrupt(file.path, "lacks its Zip64 locator") }
            let locator = try file.read(count: 20, at: locatorPosition)
            guard le32(locator, 0) == zip64Locator else { throw corrupt(file.path, "lacks its Zip64 locator") }
            let recordOffset = le64(locator, 8)
            guard recordOffset < UInt64(fileSize) else { throw corrupt(file.path, "has a bad Zip64 locator") }
            let record = try file.read(count: 56, at: Int64(recordOffset))
            guard le32(record, 0) == zip64EndOfCentralDirectory else {
                throw corrupt(file.path, "has a bad Zip64 end-of-central-directory record")
            }
            count = le64(record, 32)
            size = le64(record, 40)
            offset = le64(record, 48)
        }
        guard offset <= UInt64(fileSize), size <= UInt64(fileSize) - offset, size <= UInt64(Int.max) else {
            throw corrupt(file.path, "has a central directory outside the file")
        }
        return (Int64(offset), Int(size), count)
    }

    private static func localHeaderOffset(
        _ records: [UInt8], record: Int, nameLength: Int, extraLength: Int, path: String
    ) throws -> Int64 {
        let offset = le32(records, record + 42)
        guard offset == 0xffff_ffff else { return Int64(offset) }
        // Zip64: the offset is the last of the 64-bit values in extra field 0x0001, after the
        // sizes whose 32-bit fields are saturated.
        var skip = 0
        if le32(records, record + 24) == 0xffff_ffff { skip += 8 }
        if le32(records, record + 20) == 0xffff_ffff { skip += 8 }
        var field = record + 46 + nameLength
        let end = field + extraLength
        while field + 4 <= end {
            let id = le16(records, field)
            let length = Int(le16(records, field + 2))
            if id == 0x0001, skip + 8 <= length, field + 4 + skip + 8 <= end {
                return Int64(le64(records, field + 4 + skip))
            }
            field += 4 + length
        }
        throw corrupt(path, "has a Zip64 entry without its offset")
    }

    private static func corrupt(_ path: String, _ problem: String) -> QuireError {
        QuireError(.corruptData, "zip '\(path)' \(problem)")
    }

    private static func le16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
        UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    private static func le32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(le16(bytes, at)) | UInt32(le16(bytes, at + 2)) << 16
    }

    private static func le64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        UInt64(le32(bytes, at)) | UInt64(le32(bytes, at + 4)) << 32
    }

    private static func bytes32(_ value: UInt32) -> [UInt8] {
        [
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24),
        ]
    }
}
