import Testing

@testable import Quire

/// A connection's sequence counters answer as a dictionary keyed by collection id would.
@Suite struct SequenceMapTests {
    @Test func answersAsADictionary() {
        var map = SequenceMap()
        var reference: [Int64: UInt64] = [:]
        #expect(map.isEmpty)
        // Set, overwrite, read in and out of order, remove, and read again.
        let steps: [(Int64, UInt64?)] = [
            (7, 1), (7, 2), (3, 10), (9, 4), (3, 11), (7, nil), (5, nil), (9, 5), (7, 6), (3, nil), (3, 12),
        ]
        for (collectionID, sequence) in steps {
            map[collectionID] = sequence
            reference[collectionID] = sequence
            for probe: Int64 in [3, 5, 7, 9, 11] { #expect(map[probe] == reference[probe], "\(probe)") }
        }
        #expect(Dictionary(uniqueKeysWithValues: map.map { ($0.collectionID, $0.sequence) }) == reference)
        map.removeAll(keepingCapacity: true)
        #expect(map.isEmpty)
        #expect(map[9] == nil)
    }
}
