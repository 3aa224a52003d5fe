import FuzzDriver
@_spi(Codec) import Quire

/// Fuzzes the JSON codec (`JSONReader`, `JSONWriter`).
///
/// The first byte picks a mode:
/// - even: the rest is JSON text. Reading it must either throw a `QuireError` or give a value
///   that writes, reads back equal, and writes again to the same bytes (canonical output).
/// - odd: the rest describes a value tree (deep nesting, any double including NaN and
///   infinities, odd strings). Writing it must either throw `invalidParameter` or give text
///   that reads back equal.
@main
enum JSONCodecFuzzer {
    static func main() {
        FuzzDriver.run { data, size in
            JSONCodecFuzzer.test(FuzzDriver.buffer(data, size))
            return 0
        }
    }

    static func test(_ input: UnsafeRawBufferPointer) {
        guard let mode = input.first else { return }
        let rest = UnsafeRawBufferPointer(rebasing: input.dropFirst())
        if mode & 1 == 0 {
            readText(rest)
        } else {
            var source = FuzzBytes(rest)
            writeValue(makeValue(&source, depth: 0))
        }
    }

    private static func readText(_ text: UnsafeRawBufferPointer) {
        let value: JSONCodec.Value
        do {
            value = try JSONCodec.parse(text)
        } catch let error as QuireError {
            guard error.code == .corruptData, error.message.hasPrefix("invalid JSON at byte ") else {
                FuzzDriver.fail("unexpected reader error \(error)")
            }
            return
        } catch {
            FuzzDriver.fail("reader threw a non-Quire error \(error)")
        }
        let written: [UInt8]
        do {
            written = try JSONCodec.bytes(value)
        } catch {
            FuzzDriver.fail("a value read from JSON cannot be written back: \(error)")
        }
        let reread: JSONCodec.Value
        do {
            reread = try JSONCodec.parse(written)
        } catch {
            FuzzDriver.fail("written JSON does not read back: \(error)")
        }
        guard reread == value else { FuzzDriver.fail("round trip changed the value") }
        guard (try? JSONCodec.bytes(reread)) == written else { FuzzDriver.fail("writing is not canonical") }
    }

    private static func writeValue(_ value: JSONCodec.Value) {
        let written: [UInt8]
        do {
            written = try JSONCodec.bytes(value)
        } catch let error as QuireError {
            guard error.code == .invalidParameter else { FuzzDriver.fail("unexpected writer error \(error)") }
            return
        } catch {
            FuzzDriver.fail("writer threw a non-Quire error \(error)")
        }
        let reread: JSONCodec.Value
        do {
            reread = try JSONCodec.parse(written)
        } catch {
            FuzzDriver.fail("written JSON does not read back: \(error)")
        }
        guard reread == value else { FuzzDriver.fail("written value reads back different") }
        // Unsorted output must read back the same too.
        guard let unsorted = try? JSONCodec.bytes(value, sortedKeys: false), (try? JSONCodec.parse(unsorted)) == value
        else {
            FuzzDriver.fail("unsorted output differs")
        }
    }

    /// Builds a value from the bytes; depth may exceed the codec's limit on purpose.
    private static func makeValue(_ source: inout FuzzBytes, depth: Int) -> JSONCodec.Value {
        if depth > 600 || source.isEmpty { return .null }
        switch source.byte() % 9 {
        case 0: return .null
        case 1: return .bool(source.byte() & 1 == 1)
        case 2: return .int(Int64(bitPattern: source.uint64()))
        case 3: return .double(Double(bitPattern: source.uint64()))
        case 4: return .string(String(decoding: source.bytes(upTo: 64), as: UTF8.self))
        case 5: return .string(String(decoding: source.bytes(upTo: 64).map { $0 & 0x1F }, as: UTF8.self))
        case 6, 7:
            let count = Int(source.byte() % 8)
            return .array((0..<count).map { _ in makeValue(&source, depth: depth + 1) })
        default:
            let count = Int(source.byte() % 8)
            var members: [String: JSONCodec.Value] = [:]
            for _ in 0..<count {
                let key = String(decoding: source.bytes(upTo: 16), as: UTF8.self)
                members[key] = makeValue(&source, depth: depth + 1)
            }
            return .object(members)
        }
    }
}
