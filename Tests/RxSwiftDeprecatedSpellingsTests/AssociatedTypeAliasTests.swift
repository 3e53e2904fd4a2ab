import RxRelay
import RxSwift
import RxTest
import XCTest

// RxSwift 4 code called the element type `E`, in constraints and in signatures.

private struct Response: Equatable {
    var status: Int
}

extension ObservableType where E == Response {
    fileprivate func successful() -> Observable<E> {
        filter { (200..<300).contains($0.status) }
    }
}

extension ObserverType where E == Int {
    fileprivate func sendTwice(_ value: E) {
        onNext(value)
        onNext(value)
    }
}

private func firstElement<Source: ObservableType>(of source: Source) -> Source.E? {
    var first: Source.E?
    let subscription = source.subscribe(onNext: { value in
        if first == nil { first = value }
    })
    subscription.dispose()
    return first
}

final class AssociatedTypeAliasTests: RxLeakCheckingTestCase {
    func testEInAConstraintOfObservableType() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(210, Response(status: 200)), .next(220, Response(status: 500)), .next(230, Response(status: 204)),
            .completed(240),
        ])
        let res = scheduler.start { xs.successful() }
        XCTAssertEqual(
            res.events, [.next(210, Response(status: 200)), .next(230, Response(status: 204)), .completed(240)])
    }

    func testEInAConstraintOfObserverType() {
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.subscribe(onNext: { received.append($0) })
        subject.asObserver().sendTwice(7)
        AnyObserver<Int> { event in
            if case .next(let value) = event { received.append(value) }
        }
        .sendTwice(8)
        XCTAssertEqual(received, [7, 7, 8, 8])
        subscription.dispose()
    }

    func testEAsAMemberTypeEqualsElement() {
        let typed: Observable<Int>.E = 1
        let observerTyped: AnyObserver<String>.E = "a"
        let relayTyped: BehaviorRelay<Int>.E = 2
        XCTAssertEqual(typed, 1)
        XCTAssertEqual(observerTyped, "a")
        XCTAssertEqual(relayTyped, 2)
        XCTAssertTrue(Observable<Int>.E.self == Int.self)
        XCTAssertTrue(PublishSubject<String>.E.self == String.self)
        XCTAssertEqual(firstElement(of: BehaviorSubject(value: 5)), 5)
    }
}
