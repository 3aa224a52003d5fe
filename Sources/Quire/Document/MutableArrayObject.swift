import Foundation

/// A JSON array inside a mutable document; nested containers read from it are live.
public final class MutableArrayObject: ArrayObject, MutableArrayProtocol, @unchecked Sendable {
    private var nodes: [DocumentNode]

    /// A new array with no elements, to fill with the adders and store in a document.
    public init() {
        nodes = []
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
        self.init()
        guard case .array(let elements) = try JSONReader.applicationJSON({ try JSONReader.parse(json) }) else {
            throw QuireError(.invalidJSON, "invalid JSON at byte 0: the JSON for an array must be an array")
        }
        nodes = elements.map { .value($0) }
    }

    override init(_ elements: [JSONValue], blobStore: BlobStore?) {
        nodes = elements.map { .value($0) }
        super.init([], blobStore: blobStore)
    }

    init(nodes: [DocumentNode]) {
        self.nodes = nodes
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
    public override var count: Int { nodes.count }

    /// The element at `index`; nested containers come back mutable and live.
    public override func value(at index: Int) -> Any? {
        guard nodes.indices.contains(index) else { return nil }
        let (value, live) = nodes[index].presented(blobStore: blobStore)
        if let live { nodes[index] = live }
        return value
    }

    /// Replaces the whole content.
    @discardableResult
    public func setData(_ data: [Any]) -> Self {
        nodes = data.map { DocumentNode(any: $0) }
        return self
    }

    /// Replaces the element at `index`; ignored when out of range.
    @discardableResult
    public func setValue(_ value: Any?, at index: Int) -> Self {
        if nodes.indices.contains(index) { nodes[index] = DocumentNode(any: value) }
        return self
    }

    /// Appends `value` (the types ``MutableDictionaryProtocol/setValue(_:forKey:)`` accepts).
    @discardableResult
    public func addValue(_ value: Any?) -> Self {
        nodes.append(DocumentNode(any: value))
        return self
    }

    /// Inserts an element at `index` (0...count); ignored when out of range.
    @discardableResult
    public func insertValue(_ value: Any?, at index: Int) -> Self {
        if (0...nodes.count).contains(index) { nodes.insert(DocumentNode(any: value), at: index) }
        return self
    }

    /// Removes the element at `index`; ignored when out of range.
    @discardableResult
    public func removeValue(at index: Int) -> Self {
        if nodes.indices.contains(index) { nodes.remove(at: index) }
        return self
    }
}
