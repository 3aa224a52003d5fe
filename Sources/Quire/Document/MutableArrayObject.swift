import Foundation

/// A JSON array inside a mutable document; nested containers read from it are live.
///
/// Each call is safe from any thread, a lock guarding the elements (reading a nested
/// container makes it live, a change); a sequence of calls from two threads interleaves.
public final class MutableArrayObject: ArrayObject, MutableArrayProtocol, @unchecked Sendable {
    // Safe because the only mutable state is `state`, reached only under its lock; nested
    // containers lock their own, and no lock is held while calling into another object.
    private let state: Locked<[DocumentNode]>

    /// The elements now; the nested containers among them are live and locked on their own.
    private var nodes: [DocumentNode] { state.withLock { $0 } }

    /// A new array with no elements, to fill with the adders and store in a document.
    public init() {
        state = Locked([])
        super.init([])
    }

    /// An array holding `data`.
    public convenience init(data: [Any]?) {
        self.init()
        if let data { setData(data) }
    }

    /// An array parsed from a JSON array's text.
    ///
    /// - Throws: ``QuireError/Code/invalidJSON`` for text that is not a JSON array, with the byte
    ///   offset of the fault.
    public convenience init(json: String) throws {
        guard case .array(let elements) = try JSONReader.applicationJSON({ try JSONReader.parse(json) }) else {
            throw QuireError(.invalidJSON, "invalid JSON at byte 0: the JSON for an array must be an array")
        }
        self.init(nodes: elements.map { .value($0) })
    }

    override init(_ elements: [JSONValue], blobStore: BlobStore?) {
        state = Locked(elements.map { .value($0) })
        super.init([], blobStore: blobStore)
    }

    init(nodes: [DocumentNode]) {
        state = Locked(nodes)
        super.init([])
    }

    override var jsonArray: [JSONValue] { (try? jsonArray(path: "")) ?? [] }

    func jsonArray(path: String) throws -> [JSONValue] {
        try nodes.enumerated().map { index, node in try node.jsonValue(path: "\(path)[\(index)]") }
    }

    func collectBlobs(into blobs: inout [Blob]) {
        for node in nodes { node.collectBlobs(into: &blobs) }
    }

    /// The number of elements.
    public override var count: Int { state.withLock { $0.count } }

    /// The element at `index`; nested containers come back mutable and live.
    public override func value(at index: Int) -> Any? {
        let blobStore = self.blobStore
        return state.withLock { nodes -> Any? in
            guard nodes.indices.contains(index) else { return nil }
            let (value, live) = nodes[index].presented(blobStore: blobStore)
            if let live { nodes[index] = live }
            return value
        }
    }

    /// Replaces the whole content.
    @discardableResult
    public func setData(_ data: [Any]) -> Self {
        let nodes = data.map { DocumentNode(any: $0) }
        state.withLock { $0 = nodes }
        return self
    }

    /// Replaces the element at `index`; ignored when out of range.
    @discardableResult
    public func setValue(_ value: Any?, at index: Int) -> Self {
        let node = DocumentNode(any: value)
        state.withLock { nodes in
            if nodes.indices.contains(index) { nodes[index] = node }
        }
        return self
    }

    /// Appends `value` (the types ``MutableDictionaryProtocol/setValue(_:forKey:)`` accepts).
    @discardableResult
    public func addValue(_ value: Any?) -> Self {
        let node = DocumentNode(any: value)
        state.withLock { $0.append(node) }
        return self
    }

    /// Inserts an element at `index` (0...count); ignored when out of range.
    @discardableResult
    public func insertValue(_ value: Any?, at index: Int) -> Self {
        let node = DocumentNode(any: value)
        state.withLock { nodes in
            if (0...nodes.count).contains(index) { nodes.insert(node, at: index) }
        }
        return self
    }

    /// Removes the element at `index`; ignored when out of range.
    @discardableResult
    public func removeValue(at index: Int) -> Self {
        state.withLock { nodes in
            if nodes.indices.contains(index) { nodes.remove(at: index) }
        }
        return self
    }
}
