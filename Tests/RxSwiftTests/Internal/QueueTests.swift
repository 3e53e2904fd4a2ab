import XCTest

@testable import RxSwift

final class QueueTests: XCTestCase {
    func testEmptyQueue() {
        var queue = Queue<Int>()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.count, 0)
        XCTAssertNil(queue.dequeue())
        XCTAssertEqual(queue.elements, [])
    }

    func testFIFO() {
        var queue = Queue<Int>()
        for value in 0..<10 { queue.enqueue(value) }
        XCTAssertEqual(queue.count, 10)
        XCTAssertEqual(queue.elements, Array(0..<10))
        var out: [Int] = []
        while let value = queue.dequeue() { out.append(value) }
        XCTAssertEqual(out, Array(0..<10))
        XCTAssertTrue(queue.isEmpty)
    }

    func testWrapsAroundAndGrowsWhileWrapped() {
        var queue = Queue<Int>()
        var expected: [Int] = []
        var next = 0
        // Interleave so that head moves through the ring before it has to grow.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 1) {
                queue.enqueue(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) {
                XCTAssertEqual(queue.dequeue(), expected.removeFirst())
            }
            XCTAssertEqual(queue.elements, expected)
            XCTAssertEqual(queue.count, expected.count)
        }
    }

    func testStorageIsReusedAfterDraining() {
        var queue = Queue<Int>()
        for value in 0..<8 { queue.enqueue(value) }
        let capacity = queue.capacity
        for _ in 0..<100 {
            while queue.dequeue() != nil {}
            for value in 0..<8 { queue.enqueue(value) }
        }
        XCTAssertEqual(queue.capacity, capacity)
    }

    func testRemoveAll() {
        var queue = Queue<String>()
        queue.enqueue("a")
        queue.enqueue("b")
        queue.removeAll()
        XCTAssertTrue(queue.isEmpty)
        XCTAssertEqual(queue.capacity, 0)
        queue.enqueue("c")
        XCTAssertEqual(queue.dequeue(), "c")
    }

    func testDequeueReleasesTheElement() {
        final class Object {}
        var queue = Queue<Object>()
        weak var weakObject: Object?
        do {
            let object = Object()
            weakObject = object
            queue.enqueue(object)
        }
        XCTAssertNotNil(weakObject)
        _ = queue.dequeue()
        XCTAssertNil(weakObject)
    }
}
