import RxCocoa
import RxSwift
import RxTest
import XCTest

private final class MapView: ReactiveCompatible {
    var overlays: [String] = []
}

/// The RxCocoa 4 spelling of a binder, as the RxSwift book's early edition writes it.
extension Reactive where Base: MapView {
    fileprivate var overlays: UIBindingObserver<Base, [String]> {
        UIBindingObserver(UIElement: base) { mapView, overlays in
            mapView.overlays = overlays
        }
    }
}

final class UIBindingObserverTests: RxLeakCheckingTestCase {
    func testUIBindingObserverBindsLikeBinder() {
        let scheduler = TestScheduler(initialClock: 0)
        let mapView = MapView()
        SharingScheduler.mock(scheduler: scheduler) {
            let search = scheduler.createHotObservable([.next(210, "Seoul"), .next(220, "Busan")])
                .asDriver(onErrorJustReturn: "")
            var subscription: Disposable?
            var seen: [[String]] = []
            scheduler.scheduleAt(200) {
                subscription = search.map { [$0] }.drive(mapView.rx.overlays)
            }
            scheduler.scheduleAt(215) { seen.append(mapView.overlays) }
            scheduler.scheduleAt(300) { subscription?.dispose() }
            scheduler.start()
            XCTAssertEqual(seen, [["Seoul"]])
            XCTAssertEqual(mapView.overlays, ["Busan"])
        }
    }

    func testUIBindingObserverHoldsItsElementWeakly() {
        var mapView: MapView? = MapView()
        weak let weakMapView = mapView
        let observer = mapView!.rx.overlays
        mapView = nil
        XCTAssertNil(weakMapView)
        observer.onNext(["ignored"])
    }
}
