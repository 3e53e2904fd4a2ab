import Foundation
import RxCocoa
import RxSwift
import RxTest
import Testing

// Built with Swift 6.2's "approachable concurrency" settings (main actor by default, isolated
// conformances inferred, nonisolated async functions run on the caller's actor) and warnings as
// errors: the controls, their `.rx` extensions, a delegate proxy and the RxSwift book's view
// controller are written with no isolation annotation at all, and run with no report.

/// A map view with a delegate (`MKMapView`): main-actor, as everything here is by default.
final class Map {
    weak var delegate: MapDelegate?
    private(set) var center = 0

    func pan(to center: Int) {
        self.center = center
        delegate?.map(self, didMoveTo: center)
    }
}

protocol MapDelegate: AnyObject {
    func map(_ map: Map, didMoveTo center: Int)
}

extension Map: HasDelegate {}

/// The map's delegate proxy; its conformances are inferred to be the main actor's.
final class RxMapDelegateProxy: DelegateProxy<Map, MapDelegate>, DelegateProxyType, MapDelegate {
    static let didMoveTo: DelegateMethod = "map(_:didMoveTo:)"

    // Swift 6.3 with main-actor default isolation gives every subclass of a nonisolated class from
    // another module a main-actor stub of the superclass's initializer, and then rejects it ("has
    // different actor isolation from nonisolated overridden declaration", swiftlang/swift#84644,
    // fixed by swiftlang/swift#90311 after 6.3). Overriding it as nonisolated is the workaround.
    nonisolated override init<Proxy: DelegateProxyType>(parentObject: Map, delegateProxy: Proxy.Type)
    where Proxy: DelegateProxy<Map, MapDelegate>, Proxy.ParentObject == Map, Proxy.Delegate == MapDelegate {
        super.init(parentObject: parentObject, delegateProxy: delegateProxy)
    }

    static func registerKnownImplementations() {
        register { RxMapDelegateProxy(parentObject: $0, delegateProxy: RxMapDelegateProxy.self) }
    }

    func map(_ map: Map, didMoveTo center: Int) {
        forward(Self.didMoveTo, [map, center]) { $0.map(map, didMoveTo: center) }
    }
}

final class Label {
    var text: String?
}

final class TextField {
    fileprivate let value = BehaviorRelay<String?>(value: "")
    fileprivate let returnKey = PublishRelay<Void>()

    var text: String? {
        get { value.value }
        set { value.accept(newValue) }
    }

    func type(_ text: String) {
        self.text = text
        returnKey.accept(())
    }
}

extension Label: ReactiveCompatible {}
extension TextField: ReactiveCompatible {}
extension Map: ReactiveCompatible {}

extension Reactive where Base: Label {
    var text: Binder<String?> { Binder(base) { $0.text = $1 } }
}

extension Reactive where Base: TextField {
    var text: ControlProperty<String?> {
        ControlProperty(values: base.value.asObservable(), valueSink: Binder(base) { $0.text = $1 })
    }

    var controlEventReturn: ControlEvent<Void> { ControlEvent(events: base.returnKey.asObservable()) }
}

extension Reactive where Base: Map {
    var didMove: ControlEvent<Int> {
        ControlEvent(
            events: RxMapDelegateProxy.proxy(for: base).methodInvoked(RxMapDelegateProxy.didMoveTo)
                .map { ($0[1] as? Int) ?? 0 })
    }
}

/// The weather service, nonisolated (SE-0466) so that its closures may run on its background queue.
nonisolated final class WeatherService: Sendable {
    func weather(city: String) -> Observable<String> {
        Observable.just(city)
            .delay(.milliseconds(5), scheduler: ConcurrentDispatchQueueScheduler(qos: .default))
            .map { "\($0): 22°C" }
    }
}

/// The RxSwift book's weather view controller: no annotation, main-actor by default.
final class WeatherViewController {
    let searchCityName = TextField()
    let cityLabel = Label()
    let mapLabel = Label()
    let map = Map()
    private let api = WeatherService()
    private var bag = DisposeBag()

    func viewDidLoad() {
        let search = searchCityName.rx.controlEventReturn.asObservable()
            .map { self.searchCityName.text ?? "" }
            .filter { !$0.isEmpty }
            .flatMapLatest { text in self.api.weather(city: text).catchAndReturn("unknown") }
            .asDriver(onErrorJustReturn: "unknown")
        search.drive(cityLabel.rx.text).disposed(by: bag)
        map.rx.didMove.map { "centre \($0)" }.bind(to: mapLabel.rx.text).disposed(by: bag)
    }

    func viewDidDisappear() {
        bag = DisposeBag()
    }
}

@Suite(.leakChecked, .isolationChecked)
struct ApproachableViewControllerTests {
    @Test
    func theSeedsViewControllerWorksWithNoAnnotationAndNoReport() async throws {
        let controller = WeatherViewController()
        controller.viewDidLoad()
        controller.searchCityName.type("Seoul")
        controller.map.pan(to: 7)
        #expect(controller.mapLabel.text == "centre 7")

        let deadline = ContinuousClock.now + .seconds(5)
        while controller.cityLabel.text != "Seoul: 22°C" {
            try #require(ContinuousClock.now < deadline, "timed out")
            try await Task.sleep(for: .milliseconds(2))
        }
        controller.viewDidDisappear()
    }
}
