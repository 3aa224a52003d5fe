import Foundation

/// A JSON object inside a mutable document. Nested containers read from it are live: a
/// change to them is a change to this object.
public final class MutableDictionaryObject: DictionaryObject, MutableDictionaryProtocol, @unchecked Sendable {
    private var storedNodes: [String: DocumentNode]
    /// JSON text given to ``setJSON(_:)``, validated but not yet turned into nodes: a
    /// document made from JSON and saved unchanged is written straight from it.
    private(set) var untouchedJSON: JSONTape?

    /// The content as nodes, built from ``untouchedJSON`` at the first use.
    private var nodes: [String: DocumentNode] {
        get {
            buildNodes()
            return storedNodes
        }
        _modify {
            buildNodes()
            yield &storedNodes
        }
        set {
            untouchedJSON = nil
            storedNodes = newValue
        }
    }

    private func buildNodes() {
        guard let tape = untouchedJSON else { return }
        untouchedJSON = nil
        storedNodes = tape.read { $0.object(at: 0) }.mapValues { .value($0) }
    }

    /// A new dictionary with no keys, to fill with the setters and store in a document.
    public init() {
        storedNodes = [:]
        super.init([:])
    }

    /// A dictionary holding `data` (see ``MutableDictionaryProtocol/setValue(_:forKey:)``).
    public convenience init(data: [String: Any]?) {
        self.init()
        if let data { setData(data) }
    }

    /// A dictionary parsed from a JSON object's text.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    public convenience init(json: String) throws {
        self.init()
        try setJSON(json)
    }

    override init(_ members: [String: JSONValue], blobStore: BlobStore?) {
        storedNodes = members.mapValues { .value($0) }
        super.init([:], blobStore: blobStore)
    }

    override var jsonObject: [String: JSONValue] { (try? jsonObject(path: "")) ?? [:] }

    func jsonObject(path: String) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = [:]
        result.reserveCapacity(nodes.count)
        for (key, node) in nodes {
            result[key] = try node.jsonValue(path: path.isEmpty ? key : path + "." + key)
        }
        return result
    }

    func setNode(_ node: DocumentNode, forKey key: String) { nodes[key] = node }

    func collectBlobs(into blobs: inout [Blob]) {
        for node in nodes.values { node.collectBlobs(into: &blobs) }
    }

    /// The number of keys.
    public override var count: Int { nodes.count }

    /// The keys present now, sorted by their UTF-8 bytes.
    public override var keys: [String] { nodes.keys.sorted() }

    /// The value at `key`; nested dictionaries and arrays come back mutable and live.
    public override func value(forKey key: String) -> Any? {
        guard let node = nodes[key] else { return nil }
        let (value, live) = node.presented(blobStore: blobStore)
        if let live { nodes[key] = live }
        return value
    }

    /// Sets `value` at `key`.
    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) -> Self {
        nodes[key] = DocumentNode(any: value)
        return self
    }

    /// Removes `key`, so that it reads as missing (not as null); a missing key is left alone.
    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        nodes.removeValue(forKey: key)
        return self
    }

    /// Replaces the whole content.
    @discardableResult
    public func setData(_ data: [String: Any]) -> Self {
        nodes = data.mapValues { DocumentNode(any: $0) }
        return self
    }

    /// Replaces the whole content with a JSON object's; throws for invalid JSON or a
    /// non-object.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    @discardableResult
    public func setJSON(_ json: String) throws -> Self {
        var text = json
        let tape = try JSONReader.applicationJSON { try text.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) } }
        guard tape.kind(at: 0) == .object else {
            throw QuireError(.invalidJSON, "invalid JSON at byte 0: the JSON for a dictionary or document must be an object")
        }
        storedNodes = [:]
        untouchedJSON = tape
        return self
    }
}
