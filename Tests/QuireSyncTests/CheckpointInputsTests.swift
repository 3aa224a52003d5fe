import Foundation
import Quire
import Testing

@testable import QuireSync

/// Checkpoint IDs: what is normalised, and what makes a different ID.
@Suite struct CheckpointInputsTests {
    private func id(
        _ url: String, uuid: String = "U", collection: String = "_default._default", channels: [String] = [],
        documentIDs: [String] = [], filter: String? = nil, parameters: [String: String] = [:]
    ) throws -> String {
        CheckpointInputs(
            uuid: uuid, remoteURL: try NormalizedURL(string: url), collection: collection, channels: channels,
            filter: filter, filterParameters: parameters, documentIDs: documentIDs
        ).checkpointID
    }

    @Test(arguments: [
        ("http://h/db", "http://h:80/db"),
        ("HTTP://Host/db", "http://host:80/db"),
        ("http://h/db/", "http://h/db"),
        ("https://h/db", "https://h:443/db"),
        ("ws://h/db", "http://h:80/db"),
        ("wss://h:443/db", "https://h/db"),
        ("http://user:pass@h/db", "http://h/db"),
    ])
    func urlFormsThatShareACheckpoint(lhs: String, rhs: String) throws {
        #expect(try id(lhs) == id(rhs))
        #expect(try NormalizedURL(string: lhs) == NormalizedURL(string: rhs))
    }

    @Test(arguments: [
        ("http://h/db", "https://h/db"),
        ("http://h/db", "http://h:8080/db"),
        ("http://h/db", "http://other/db"),
        ("http://h/db", "http://h/db2"),
        ("http://h/db", "http://h/DB"),
        ("https://h:80/db", "http://h:80/db"),
    ])
    func urlFormsThatDoNot(lhs: String, rhs: String) throws {
        #expect(try id(lhs) != id(rhs))
    }

    @Test func normalisedFormIsExplicit() throws {
        #expect(try NormalizedURL(string: "HTTPS://Example.COM/db/").description == "https://example.com:443/db")
        #expect(try NormalizedURL(string: "http://[::1]:4984/db").description == "http://[::1]:4984/db")
    }

    @Test func otherInputsChangeTheID() throws {
        let base = try id("http://h/db")
        #expect(try id("http://h/db", uuid: "V") != base)
        #expect(try id("http://h/db", collection: "s.c") != base)
        #expect(try id("http://h/db", channels: ["a"]) != base)
        #expect(try id("http://h/db", documentIDs: ["x"]) != base)
        #expect(try id("http://h/db", filter: "app/by_type") != base)
        #expect(
            try id("http://h/db", filter: "app/by_type", parameters: ["type": "a"])
                != id("http://h/db", filter: "app/by_type"))
    }

    @Test func setsIgnoreOrderAndRepeats() throws {
        #expect(try id("http://h/db", channels: ["b", "a", "a"]) == id("http://h/db", channels: ["a", "b"]))
        #expect(try id("http://h/db", documentIDs: ["y", "x"]) == id("http://h/db", documentIDs: ["x", "y", "x"]))
    }

    @Test func idIsHexSHA1OfTheCanonicalInputs() throws {
        let value = try id("http://h/db")
        #expect(value.hasPrefix("cp-"))
        #expect(value.count == 43)
        #expect(value.dropFirst(3).allSatisfy { $0.isHexDigit })
    }

    @Test func recordedInputsReadBack() throws {
        let inputs = CheckpointInputs(
            uuid: "U", remoteURL: try NormalizedURL(string: "http://h/db"), collection: "s.c", channels: ["b", "a"],
            filter: "f", filterParameters: ["k": "v"], documentIDs: ["x"])
        #expect(CheckpointInputs(recordedIn: inputs.hashedFields) == inputs)
    }

    @Test(arguments: ["ftp://h/db", "http:///db", "not a url", "http://h:70000/db"])
    func invalidURLs(_ text: String) {
        #expect(throws: QuireError.self) { try NormalizedURL(string: text) }
    }
}
