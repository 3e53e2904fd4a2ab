import RxCocoa
import RxSwift
import RxTest
import XCTest

/// A client in the Swift 5 language mode, built with warnings as errors: what RxSwift code of that
/// mode does with swift-rx compiles with no warning and behaves as before.
final class Swift5ModeClientTests: XCTestCase {
    func testANonFinalDisposableClassWithMutableStateConforms() {
        let bindings = Bindings()
        let bag = DisposeBag()
        bindings.disposed(by: bag)
        bindings.dispose()
        XCTAssertEqual(bindings.disposals, 1)
        XCTAssertEqual(SubclassedBindings().kind, "subclass")
    }

    func testOperatorClosuresCaptureVariablesAndRunOnAnyScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        var seen: [Int] = []
        let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let result = scheduler.start {
            source.map { value -> Int in
                seen.append(value)
                return value * 10
            }
        }
        XCTAssertEqual(result.events, [.next(210, 10), .next(220, 20), .completed(230)])
        XCTAssertEqual(seen, [1, 2])
    }

    func testAMainActorClassDrivesItsLabelOnTheMainThread() {
        let shown = MainActor.assumeIsolated {
            let controller = Swift5Controller()
            controller.start(Observable.of("a", "b"))
            return controller.shown
        }
        XCTAssertEqual(shown, ["a", "b"])
    }
}

/// RxFeedback's `Bindings`: a non-final class with mutable state that is a `Disposable`.
class Bindings: Disposable {
    var disposals = 0
    var kind: String { "base" }

    func dispose() {
        disposals += 1
    }
}

final class SubclassedBindings: Bindings {
    override var kind: String { "subclass" }
}

/// A Swift 5-mode main-actor class: its closures run on the main thread here, so nothing is reported.
@MainActor
final class Swift5Controller {
    var shown: [String] = []
    let bag = DisposeBag()

    nonisolated init() {}

    func start(_ texts: Observable<String>) {
        texts.observe(on: MainScheduler.instance).subscribe(onNext: { self.shown.append($0) }).disposed(by: bag)
    }
}
