import RxCocoa
import RxSwift
import RxTest
import XCTest

final class InfallibleBindTests: RxLeakCheckingTestCase {
    private final class Owner {
        var seen: [Int] = []
    }

    private let source = Infallible.from([1, 2])

    func testBindToObservers() {
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        let optional = scheduler.createObserver(Int?.self)
        _ = source.bind(to: observer)
        _ = source.bind(to: optional)
        XCTAssertEqual(observer.events, [.next(0, 1), .next(0, 2), .completed(0)])
        XCTAssertEqual(optional.events, [.next(0, 1), .next(0, 2), .completed(0)])
    }

    func testBindToRelaysIgnoresCompletion() {
        let publish = PublishRelay<Int>()
        let optionalPublish = PublishRelay<Int?>()
        var published: [Int] = []
        var optionalPublished: [Int?] = []
        let watching = Disposables.create(
            publish.subscribe(onNext: { published.append($0) }),
            optionalPublish.subscribe(onNext: { optionalPublished.append($0) }))
        let behavior = BehaviorRelay(value: 0)
        let optionalBehavior = BehaviorRelay<Int?>(value: nil)
        let replay = ReplayRelay<Int>.create(bufferSize: 1)
        let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
        _ = source.bind(to: publish)
        _ = source.bind(to: optionalPublish)
        _ = source.bind(to: behavior)
        _ = source.bind(to: optionalBehavior)
        _ = source.bind(to: replay)
        _ = source.bind(to: optionalReplay)
        XCTAssertEqual(published, [1, 2])
        XCTAssertEqual(optionalPublished, [1, 2])
        XCTAssertEqual(behavior.value, 2)
        XCTAssertEqual(optionalBehavior.value, 2)
        var replayed: [Int?] = []
        replay.subscribe(onNext: { replayed.append($0) }).dispose()
        optionalReplay.subscribe(onNext: { replayed.append($0) }).dispose()
        XCTAssertEqual(replayed, [2, 2])
        watching.dispose()
    }

    func testBindClosuresAndBinderFunctions() {
        var seen: [Int] = []
        _ = source.bind(onNext: { seen.append($0) })
        let owner = Owner()
        _ = source.bind(with: owner) { owner, element in owner.seen.append(element * 10) }
        let count = source.bind(to: { (infallible: Infallible<Int>) in infallible })
        let added = source.bind(
            to: { (infallible: Infallible<Int>) in { (offset: Int) in infallible.map { $0 + offset } } },
            curriedArgument: 100)
        _ = count.bind(onNext: { seen.append($0) })
        _ = added.bind(onNext: { seen.append($0) })
        XCTAssertEqual(seen, [1, 2, 1, 2, 101, 102])
        XCTAssertEqual(owner.seen, [10, 20])
    }

    func testBindToABinder() {
        final class Target {
            var value = 0
        }
        let target = Target()
        _ = source.bind(to: Binder(target) { $0.value = $1 })
        XCTAssertEqual(target.value, 2)
    }
}
