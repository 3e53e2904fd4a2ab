import RxSwift
import RxTest
import XCTest

/// Runs the old and the new spelling of an operator against identical fresh schedulers and sources
/// and fails unless both record the same events and the same subscriptions; returns those events so
/// that the test can also check them against what it expects.
func assertSameBehaviour<Element: Equatable>(
    of source: @escaping (TestScheduler) -> TestableObservable<Int>,
    disposed: TestTime = TestScheduler.Defaults.disposed,
    old: @escaping (Observable<Int>, TestScheduler) -> Observable<Element>,
    new: @escaping (Observable<Int>, TestScheduler) -> Observable<Element>,
    file: StaticString = #filePath, line: UInt = #line
) -> [Recorded<Event<Element>>] {
    func run(_ spelling: @escaping (Observable<Int>, TestScheduler) -> Observable<Element>)
        -> ([Recorded<Event<Element>>], [Subscription])
    {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let res = scheduler.start(disposed: disposed) { spelling(xs.asObservable(), scheduler) }
        return (res.events, xs.subscriptions)
    }
    let (oldEvents, oldSubscriptions) = run(old)
    let (newEvents, newSubscriptions) = run(new)
    XCTAssertEqual(oldEvents, newEvents, "events differ between the old and the new spelling", file: file, line: line)
    XCTAssertEqual(
        oldSubscriptions, newSubscriptions, "subscriptions differ between the old and the new spelling", file: file,
        line: line)
    return newEvents
}
