import CZlib
import Foundation
import Quire
import Testing

@testable import QuireListener
@testable import QuireSync

/// Gzipped request bodies are decoded, as CouchDB decodes them (the IBM Cloudant SDK gzips
/// every body), within the body size limit measured after decoding; other codings are 415.
@Suite struct RequestBodyDecoderTests {
    @Test func gzippedBodiesAreDecoded() async throws {
        try await ListenerHarness.with { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            let body = gzip(Array(#"{"name":"Ada","list":[1,2,3]}"#.utf8))
            #expect(body.first == 0x1F)
            let put = try await raw.send(
                "PUT /db/doc HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(body.count)",
                body: Data(body))
            #expect(put.status == 201)
            #expect(try harness.collection.document(id: "doc")?.string(forKey: "name") == "Ada")
            let docs = gzip(Array(#"{"docs":[{"_id":"a"},{"_id":"b"}]}"#.utf8))
            let bulk = try await raw.send(
                "POST /db/_bulk_docs HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: GZIP\r\nContent-Length: \(docs.count)",
                body: Data(docs))
            #expect(bulk.status == 201)
            #expect(harness.collection.count == 3)
            // Chunked and gzipped at once.
            let chunked = try await raw.send(
                "PUT /db/chunked HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked",
                body: Data(String(format: "%x\r\n", body.count).utf8) + Data(body) + Data("\r\n0\r\n\r\n".utf8))
            #expect(chunked.status == 201)
            // identity is no coding at all.
            let plain = Data(#"{"v":1}"#.utf8)
            let identity = try await raw.send(
                "PUT /db/plain HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: identity\r\nContent-Length: \(plain.count)",
                body: plain)
            #expect(identity.status == 201)
        }
    }

    @Test func otherCodingsBrokenGzipAndBombsAreRefused() async throws {
        try await ListenerHarness.with(maxRequestBodySize: 1024 * 1024) { harness async throws in
            let raw = RawHTTPClient(port: try #require(harness.listener.port))
            func put(_ body: [UInt8], coding: String) async throws -> RawHTTPClient.Reply {
                try await raw.send(
                    "PUT /db/doc HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.count)",
                    body: Data(body))
            }
            let json = Array(#"{"v":1}"#.utf8)
            for coding in ["br", "deflate", "gzip, br", "compress"] {
                let refused = try await put(json, coding: coding)
                #expect(refused.status == 415, "\(coding)")
                #expect(refused.json["error"] == "unsupported_media_type")
            }
            let notGzip = try await put(json, coding: "gzip")
            #expect(notGzip.status == 400)
            #expect(notGzip.json["reason"]?.stringValue?.contains("gzip") == true)
            let truncated = try await put(Array(gzip(json).dropLast(6)), coding: "gzip")
            #expect(truncated.status == 400)
            // 4 MiB of spaces around a small object: a few KiB compressed, beyond the 1 MiB limit decoded.
            let bomb = gzip(Array("{\"v\":1".utf8) + [UInt8](repeating: 0x20, count: 4 * 1024 * 1024) + [0x7D])
            #expect(bomb.count < 64 * 1024)
            let tooLarge = try await put(bomb, coding: "gzip")
            #expect(tooLarge.status == 413)
            #expect(harness.collection.count == 0)
        }
    }

    @Test func concatenatedMembersAreOneBody() throws {
        let joined = gzip(Array("{\"a\":".utf8)) + gzip(Array("1}".utf8))
        #expect(try RequestBodyDecoder.gunzip(joined, limit: 100) == Array("{\"a\":1}".utf8))
        #expect(throws: HTTPFailure.self) { try RequestBodyDecoder.gunzip(joined, limit: 5) }
    }
}

/// `bytes` gzipped with zlib.
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    guard quire_deflate_init_gzip(&stream) == Z_OK else { return [] }
    defer { deflateEnd(&stream) }
    var input = bytes
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 64)
    let written = input.withUnsafeMutableBufferPointer { source in
        output.withUnsafeMutableBufferPointer { target -> Int in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            stream.next_out = target.baseAddress
            stream.avail_out = uInt(target.count)
            guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
            return target.count - Int(stream.avail_out)
        }
    }
    return Array(output.prefix(written))
}
