import RxSwift
import RxTest
import XCTest

final class CompositeDisposableTests: RxLeakCheckingTestCase {
    func testInsertCountsAndDisposeDisposesAllOnceInInsertionOrder() {
        let log = DisposalLog()
        let composite = CompositeDisposable()
        XCTAssertEqual(composite.count, 0)
        XCTAssertNotNil(composite.insert(LoggingDisposable("a", log: log)))
        XCTAssertNotNil(composite.insert(LoggingDisposable("b", log: log)))
        XCTAssertNotNil(composite.insert(LoggingDisposable("c", log: log)))
        XCTAssertEqual(composite.count, 3)
        XCTAssertFalse(composite.isDisposed)
        XCTAssertEqual(log.names, [])

        composite.dispose()
        XCTAssertTrue(composite.isDisposed)
        XCTAssertEqual(composite.count, 0)
        XCTAssertEqual(log.names, ["a", "b", "c"])

        composite.dispose()
        XCTAssertEqual(log.names, ["a", "b", "c"])
    }

    func testRemoveDisposesOnlyThatMember() {
        let first = CountingDisposable()
        let second = CountingDisposable()
        let composite = CompositeDisposable()
        let firstKey = composite.insert(first)
        let secondKey = composite.insert(second)
        XCTAssertNotEqual(firstKey, secondKey)

        composite.remove(for: firstKey!)
        XCTAssertEqual(first.disposeCount, 1)
        XCTAssertEqual(second.disposeCount, 0)
        XCTAssertEqual(composite.count, 1)

        // Removing again is a no-op: the key no longer names a member.
        composite.remove(for: firstKey!)
        XCTAssertEqual(first.disposeCount, 1)

        composite.dispose()
        XCTAssertEqual(first.disposeCount, 1)
        XCTAssertEqual(second.disposeCount, 1)
    }

    func testRemoveAfterDisposeDoesNothing() {
        let member = CountingDisposable()
        let composite = CompositeDisposable()
        let key = composite.insert(member)!
        composite.dispose()
        composite.remove(for: key)
        XCTAssertEqual(member.disposeCount, 1)
    }

    func testInsertAfterDisposeDisposesAtOnceAndReturnsNil() {
        let composite = CompositeDisposable()
        composite.dispose()
        let late = CountingDisposable()
        XCTAssertNil(composite.insert(late))
        XCTAssertEqual(late.disposeCount, 1)
        XCTAssertEqual(composite.count, 0)
    }

    func testInitializers() {
        let members = (0..<6).map { _ in CountingDisposable() }

        let two = CompositeDisposable(members[0], members[1])
        XCTAssertEqual(two.count, 2)
        let three = CompositeDisposable(members[0], members[1], members[2])
        XCTAssertEqual(three.count, 3)
        let five = CompositeDisposable(members[0], members[1], members[2], members[3], members[4])
        XCTAssertEqual(five.count, 5)
        let six = CompositeDisposable(disposables: members)
        XCTAssertEqual(six.count, 6)

        six.dispose()
        XCTAssertEqual(members.map(\.disposeCount), [1, 1, 1, 1, 1, 1])
        five.dispose()
        XCTAssertEqual(members.map(\.disposeCount), [2, 2, 2, 2, 2, 1])
        three.dispose()
        two.dispose()
        XCTAssertEqual(members.map(\.disposeCount), [4, 4, 3, 2, 2, 1])
    }

    func testMemberDisposingTheCompositeFromItsDisposeDoesNotDeadlock() {
        let composite = CompositeDisposable()
        let other = CountingDisposable()
        _ = composite.insert(Disposables.create { composite.dispose() })
        _ = composite.insert(other)
        composite.dispose()
        XCTAssertEqual(other.disposeCount, 1)
    }

    func testInsertionOrderSurvivesRemovalsAndCompactions() {
        // Removing leaves a hole, and the members are compacted once more than half are holes: keys
        // must still find their members afterwards, and disposal keep the order of insertion.
        let log = DisposalLog()
        let composite = CompositeDisposable()
        var keys: [Int: CompositeDisposable.DisposeKey] = [:]
        for id in 0..<100 { keys[id] = composite.insert(LoggingDisposable("\(id)", log: log)) }
        var removed: [String] = []
        for id in 0..<100 where id % 3 != 0 {
            composite.remove(for: keys[id]!)
            removed.append("\(id)")
        }
        XCTAssertEqual(log.names, removed)
        // A second removal of the same key does nothing.
        composite.remove(for: keys[1]!)
        for id in 100..<110 { keys[id] = composite.insert(LoggingDisposable("\(id)", log: log)) }
        composite.remove(for: keys[99]!)
        composite.remove(for: keys[105]!)
        let kept = (0..<110).filter { ($0 >= 100 || $0 % 3 == 0) && $0 != 99 && $0 != 105 }
        XCTAssertEqual(composite.count, kept.count)
        composite.dispose()
        XCTAssertEqual(log.names, removed + ["99", "105"] + kept.map { "\($0)" })
    }
}
