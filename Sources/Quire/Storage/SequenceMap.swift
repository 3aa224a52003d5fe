/// Sequence numbers by collection id, as a connection counts them (see
/// `Connection+Sequences.swift`). A transaction writes to one collection or a few, so a short
/// array searched from the entry set last costs a comparison where a dictionary hashed the id
/// several times on every save.
struct SequenceMap: Sequence {
    private var entries: [(collectionID: Int64, sequence: UInt64)] = []
    /// Where the last entry set is: the next lookup most often asks for it again.
    private var recent = 0

    /// The sequence of `collectionID`, nil when there is none; setting nil removes it.
    subscript(collectionID: Int64) -> UInt64? {
        get { index(of: collectionID).map { entries[$0].sequence } }
        set {
            switch (index(of: collectionID), newValue) {
            case (let index?, let sequence?):
                entries[index].sequence = sequence
                recent = index
            case (let index?, nil):
                entries.remove(at: index)
                recent = 0
            case (nil, let sequence?):
                entries.append((collectionID, sequence))
                recent = entries.count - 1
            case (nil, nil):
                break
            }
        }
    }

    var isEmpty: Bool { entries.isEmpty }

    mutating func removeAll(keepingCapacity: Bool = false) {
        entries.removeAll(keepingCapacity: keepingCapacity)
        recent = 0
    }

    func makeIterator() -> IndexingIterator<[(collectionID: Int64, sequence: UInt64)]> {
        entries.makeIterator()
    }

    private func index(of collectionID: Int64) -> Int? {
        if recent < entries.count, entries[recent].collectionID == collectionID { return recent }
        return entries.firstIndex { $0.collectionID == collectionID }
    }
}
