import Foundation

/// A JSON object inside a mutable document. Nested containers read from it are live: a
/// change to them is a change to this object.
///
/// Each call is safe from any thread, a lock guarding the content (a read may change it:
/// JSON given to ``setJSON(_:)`` is turned into nodes at the first use, and a nested
/// container read becomes live); a sequence of calls from two threads interleaves, so edit
/// a document on one thread and pass saved ``Document``s between threads.
public final class MutableDictionaryObject: DictionaryObject, MutableDictionaryProtocol, @unchecked Sendable {
    // Safe because the only mutable state is `state`, reached only under its lock; nested
    // containers lock their own, and no lock is held while calling into another object.
    private struct State {
        /// Keyed by exact bytes: keys that differ only in Unicode normalisation are two keys.
        var nodes: [JSONKey: DocumentNode]
        /// JSON text given to ``setJSON(_:)``, validated but not yet turned into nodes: a
        /// document made from JSON and saved unchanged is written straight from it.
        var untouchedJSON: JSONTape?
        /// JSON text given to ``setJSON(_:)`` that is canonical already (see
        /// ``CanonicalJSON``), kept as it came: saved unchanged, it is the body as it is.
        var canonicalJSON: String?

        /// The content as nodes, built from ``untouchedJSON`` at the first use.
        mutating func builtNodes() -> [JSONKey: DocumentNode] {
            buildNodes()
            return nodes
        }

        mutating func buildNodes() {
            if let text = canonicalJSON {
                canonicalJSON = nil
                untouchedJSON = Self.tape(of: text)
            }
            guard let tape = untouchedJSON else { return }
            untouchedJSON = nil
            nodes = tape.read { $0.object(at: 0) }.storage.mapValues { .value($0) }
        }

        /// The tape of text ``CanonicalJSON`` accepted, so valid: nil cannot happen.
        static func tape(of text: String) -> JSONTape? {
            var text = text
            return try? text.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) }
        }
    }

    /// What a save writes for a body nothing has touched since ``setJSON(_:)``: the text
    /// itself when it is canonical, else its tape; nil when the body was touched.
    enum UntouchedBody {
        case canonical(String)
        case tape(JSONTape)
    }

    private let state: Locked<State>

    /// JSON text given to ``setJSON(_:)`` and not touched since (see ``State``).
    var untouchedBody: UntouchedBody? {
        state.withLock { state in
            if let text = state.canonicalJSON { return .canonical(text) }
            return state.untouchedJSON.map { .tape($0) }
        }
    }

    /// The nodes now; the nested containers among them are live and locked on their own.
    private var nodes: [JSONKey: DocumentNode] { state.withLock { $0.builtNodes() } }

    /// A new dictionary with no keys, to fill with the setters and store in a document.
    public init() {
        state = Locked(State(nodes: [:]))
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

    override init(_ members: JSONObject, blobStore: BlobStore?) {
        state = Locked(State(nodes: members.storage.mapValues { .value($0) }))
        super.init([:], blobStore: blobStore)
    }

    override var jsonObject: JSONObject { (try? jsonObject(path: "")) ?? [:] }

    func jsonObject(path: String) throws -> JSONObject {
        let nodes = self.nodes
        var result = JSONObject(minimumCapacity: nodes.count)
        for (key, node) in nodes {
            result[key.text] = try node.jsonValue(path: path.isEmpty ? key.text : path + "." + key.text)
        }
        return result
    }

    func setNode(_ node: DocumentNode, forKey key: String) {
        state.withLock { state in
            state.buildNodes()
            state.nodes[JSONKey(key)] = node
        }
    }

    func collectBlobs(into blobs: inout [Blob]) {
        for node in nodes.values { node.collectBlobs(into: &blobs) }
    }

    /// The number of keys.
    public override var count: Int { nodes.count }

    /// The keys present now, sorted by their UTF-8 bytes.
    public override var keys: [String] { nodes.keys.sorted().map(\.text) }

    /// The value at `key`; nested dictionaries and arrays come back mutable and live.
    public override func value(forKey key: String) -> Any? {
        let blobStore = self.blobStore
        return state.withLock { state -> Any? in
            state.buildNodes()
            let key = JSONKey(key)
            guard let node = state.nodes[key] else { return nil }
            let (value, live) = node.presented(blobStore: blobStore)
            if let live { state.nodes[key] = live }
            return value
        }
    }

    /// Sets `value` at `key`.
    @discardableResult
    public func setValue(_ value: Any?, forKey key: String) -> Self {
        setNode(DocumentNode(any: value), forKey: key)
        return self
    }

    /// Removes `key`, so that it reads as missing (not as null); a missing key is left alone.
    @discardableResult
    public func removeValue(forKey key: String) -> Self {
        state.withLock { state in
            state.buildNodes()
            _ = state.nodes.removeValue(forKey: JSONKey(key))
        }
        return self
    }

    /// Replaces the whole content.
    @discardableResult
    public func setData(_ data: [String: Any]) -> Self {
        var nodes = [JSONKey: DocumentNode](minimumCapacity: data.count)
        for (key, value) in data { nodes[JSONKey(key)] = DocumentNode(any: value) }
        state.withLock { $0 = State(nodes: nodes) }
        return self
    }

    /// Replaces the whole content with `text`, found canonical by ``CanonicalJSON``.
    func keepCanonicalJSON(_ text: String) {
        state.withLock { $0 = State(nodes: [:], canonicalJSON: text) }
    }

    /// Replaces the whole content with a JSON object's; throws for invalid JSON or a
    /// non-object.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON object, with the byte
    ///   offset of the fault.
    @discardableResult
    public func setJSON(_ json: String) throws -> Self {
        var text = json
        // Canonical text (the common case: JSON written with sorted keys) is kept as it is,
        // with no tape: a document saved unchanged stores and digests these very bytes.
        if text.withUTF8({ CanonicalJSON.isCanonicalObject($0) }) {
            keepCanonicalJSON(text)
            return self
        }
        let tape = try JSONReader.applicationJSON {
            try text.withUTF8 { try JSONTape(copying: UnsafeRawBufferPointer($0)) }
        }
        guard tape.kind(at: 0) == .object else {
            throw QuireError(
                .invalidJSON, "invalid JSON at byte 0: the JSON for a dictionary or document must be an object")
        }
        state.withLock { $0 = State(nodes: [:], untouchedJSON: tape) }
        return self
    }
}
