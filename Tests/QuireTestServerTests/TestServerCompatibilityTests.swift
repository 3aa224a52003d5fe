import Foundation
import Quire
import QuireTestServer
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The compatibility settings of `quire testserver`: the variant name `GET /` reports
/// (`--report-as`, for Couchbase's Python client, which refuses any name but its own) and
/// version 1 of the API (`--api-version 1`), answered as Couchbase Lite C's test server answers.
@Suite struct TestServerCompatibilityTests {
    /// One request; returns the status and the JSON body (nil when empty or not JSON).
    static func send(
        _ method: String, _ url: String, _ body: JSONValue? = nil, headers: [String: String] = [:]
    ) async throws -> (Int, JSONValue?) {
        var request = URLRequest(url: try #require(URL(string: url)), timeoutInterval: 30)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(try JSONWriter.bytes(body))
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, data.isEmpty ? nil : try? JSONReader.parse(data))
    }

    @Test func aReportedVariantAndVersion1AnswerAsCouchbaseLiteC() async throws {
        var configuration = TestServerConfiguration(port: 0, log: { _ in })
        configuration.reportedVariant = "couchbase-lite-c"
        configuration.apiVersion = 1
        #expect(TestServerConfiguration.knownVariants.contains(configuration.reportedVariant))
        let server = TestServer(configuration: configuration)
        try await server.start()
        let base = "http://127.0.0.1:\(try #require(server.port))"
        do {
            let (status, root) = try await Self.send("GET", base + "/")
            #expect(status == 200)
            guard case .object(let members)? = root else {
                Issue.record("GET / answered \(String(describing: root))")
                await server.stop()
                return
            }
            #expect(members["cbl"] == .string("couchbase-lite-c"))
            #expect(members["apiVersion"] == .int(1))

            let client = UUID().uuidString.lowercased()
            let headers = [TestServerEngine.versionHeader: "1", TestServerEngine.clientHeader: client]
            let session = try await Self.send(
                "POST", base + "/newSession", .object(["id": .string(client), "dataset_version": "4.0"]),
                headers: headers)
            #expect(session.0 == 200, "\(String(describing: session.1))")
            let reset = try await Self.send(
                "POST", base + "/reset", .object(["databases": ["db": [:]], "dataset_version": "4.0"]), headers: headers
            )
            #expect(reset.0 == 200, "\(String(describing: reset.1))")
            let (missingStatus, missing) = try await Self.send(
                "POST", base + "/getDocument",
                .object(["database": "db", "document": ["collection": "_default._default", "id": "nobody"]]),
                headers: headers)
            #expect(missingStatus == 400)
            guard case .object(let error)? = missing else {
                Issue.record("/getDocument answered \(String(describing: missing))")
                await server.stop()
                return
            }
            #expect(error["domain"] == .string("TESTSERVER"))
            #expect(error["message"] == .string("Document '_default._default.nobody' not found"))
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test func quireIsReportedByDefault() async throws {
        let server = TestServer(configuration: TestServerConfiguration(port: 0, log: { _ in }))
        try await server.start()
        let base = "http://127.0.0.1:\(try #require(server.port))"
        let (status, root) = try await Self.send("GET", base + "/")
        await server.stop()
        #expect(status == 200)
        guard case .object(let members)? = root else {
            Issue.record("GET / answered \(String(describing: root))")
            return
        }
        #expect(members["cbl"] == .string("quire"))
        #expect(members["apiVersion"] == .int(2))
    }
}
