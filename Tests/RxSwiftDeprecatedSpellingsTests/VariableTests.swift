import Dispatch
import RxRelay
import RxSwift
import RxTest
import XCTest

final class VariableTests: RxLeakCheckingTestCase {
    func testVariableBehavesAsBehaviorRelay() {
        // The same script against a Variable and a BehaviorRelay: identical recordings.
        func record<Store>(
            _ store: Store, set: @escaping (Store, Int) -> Void, observable: @escaping (Store) -> Observable<Int>
        ) -> [Recorded<Event<Int>>] {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(210) { set(store, 2) }
            scheduler.scheduleAt(220) { subscriptions.append(observable(store).subscribe(observer)) }
            scheduler.scheduleAt(230) { set(store, 3) }
            scheduler.scheduleAt(240) { set(store, 3) }
            scheduler.scheduleAt(250) { subscriptions.forEach { $0.dispose() } }
            scheduler.scheduleAt(260) { set(store, 4) }
            scheduler.start()
            return observer.events
        }
        let variable = Variable(1)
        let relay = BehaviorRelay(value: 1)
        let fromVariable = record(variable, set: { $0.value = $1 }, observable: { $0.asObservable() })
        let fromRelay = record(relay, set: { $0.accept($1) }, observable: { $0.asObservable() })
        XCTAssertEqual(fromVariable, fromRelay)
        XCTAssertEqual(fromVariable, [.next(220, 2), .next(230, 3), .next(240, 3)])
        XCTAssertEqual(variable.value, 4)
        XCTAssertEqual(variable.value, relay.value)
    }

    func testVariableValueReadsAndWrites() {
        let variable = Variable<[String]>([])
        variable.value.append("a")
        variable.value += ["b"]
        XCTAssertEqual(variable.value, ["a", "b"])
        var seen: [[String]] = []
        let subscription = variable.asObservable().subscribe(onNext: { seen.append($0) })
        variable.value = []
        XCTAssertEqual(seen, [["a", "b"], []])
        subscription.dispose()
    }

    func testVariableNeverTerminatesAndKeepsItsTypeAlias() {
        var variable: Variable<Int>? = Variable(0)
        var events: [Event<Int>] = []
        let subscription = variable!.asObservable().subscribe { events.append($0) }
        let element: Variable<Int>.E = 5
        variable?.value = element
        variable = nil
        // RxSwift 4's Variable completed here; a relay cannot, so this one does not (see its docs).
        XCTAssertEqual(events, [.next(0), .next(5)])
        subscription.dispose()
    }

    func testVariableSetFromSeveralThreads() {
        let variable = Variable(0)
        let subscription = variable.asObservable().subscribe()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<200 { variable.value = worker * 1000 + step }
        }
        XCTAssertEqual(variable.value % 1000, 199)
        subscription.dispose()
    }
}
