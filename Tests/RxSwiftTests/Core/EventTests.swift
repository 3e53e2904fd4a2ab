import RxSwift
import RxTest
import XCTest

final class EventTests: RxLeakCheckingTestCase {
    func testMembersOfNext() {
        let event = Event.next(1)
        XCTAssertEqual(event.element, 1)
        XCTAssertNil(event.error)
        XCTAssertFalse(event.isStopEvent)
        XCTAssertFalse(event.isCompleted)
        XCTAssertEqual(event.debugDescription, "next(1)")
    }

    func testMembersOfError() {
        let event = Event<Int>.error(testError)
        XCTAssertNil(event.element)
        XCTAssertEqual(event.error as? TestError, testError)
        XCTAssertTrue(event.isStopEvent)
        XCTAssertFalse(event.isCompleted)
        XCTAssertEqual(event.debugDescription, "error(\(testError))")
    }

    func testMembersOfCompleted() {
        let event = Event<Int>.completed
        XCTAssertNil(event.element)
        XCTAssertNil(event.error)
        XCTAssertTrue(event.isStopEvent)
        XCTAssertTrue(event.isCompleted)
        XCTAssertEqual(event.debugDescription, "completed")
    }

    func testMap() {
        XCTAssertEqual(Event.next(2).map { $0 * 10 }, .next(20))
        XCTAssertEqual(Event<Int>.completed.map { "\($0)" }, .completed)
        XCTAssertEqual(Event<Int>.error(testError).map { $0 + 1 }, .error(testError))
    }

    func testMapThrowingTurnsNextIntoError() {
        let mapped = Event.next(2).map { _ -> Int in throw TestError(code: 3) }
        XCTAssertEqual(mapped, .error(TestError(code: 3)))
    }

    func testEventConvertible() {
        func unwrap<Convertible: EventConvertible>(_ value: Convertible) -> Event<Convertible.Element> {
            value.event
        }
        XCTAssertEqual(unwrap(Event.next("a")), .next("a"))
    }

    func testSendableWhenElementIsSendable() {
        let event: any Sendable = Event.next(1)
        XCTAssertNotNil(event as? Event<Int>)
    }
}
