import Dispatch
import Testing

@testable import Quire

@Suite struct LockedTests {
    @Test func incrementsFromManyThreadsAreAllCounted() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<1000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 8000)
    }

    @Test func copiesShareTheValueAndErrorsPassThrough() {
        struct Refused: Error {}
        let original = Locked([String]())
        let copy = original
        copy.withLock { $0.append("through the copy") }
        #expect(original.withLock { $0 } == ["through the copy"])
        #expect(throws: Refused.self) { try original.withLock { _ in throw Refused() } }
        // The lock was released on the way out.
        #expect(original.withLock { $0.count } == 1)
    }

    @Test func aVoidLockSerialisesActions() {
        let lock = Locked()
        let log = Locked([Int]())
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            lock.withLock { log.withLock { $0.append(index) } }
        }
        #expect(log.withLock { $0.sorted() } == [0, 1, 2, 3])
    }
}
