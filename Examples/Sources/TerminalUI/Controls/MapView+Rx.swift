import RxCocoa
import RxSwift

/// The delegate proxy of ``MapView``, written as the RxSwift book's "Intermediate RxCocoa" writes
/// `RxMKMapViewDelegateProxy`: it stands in as the map's delegate, reports each call, and forwards
/// it to the delegate the map had (or the one `rx.setDelegate(_:)` installs).
///
/// Off Darwin the proxy implements each delegate method itself and names it with a
/// `DelegateMethod` where RxCocoa uses `#selector`; the renderer method, which returns a value, is
/// answered by the forward delegate, or with the default ``OverlayRenderer/init(overlay:)`` when
/// there is none.
///
/// Main actor, as the map is. RxCocoa's `DelegateProxyType` is nonisolated, and its requirements here
/// touch the map, so the conformance is isolated to the main actor (`@MainActor DelegateProxyType`,
/// SE-0470): usable where the map is used, which is where `proxy(for:)` is called.
@MainActor
public final class RxMapViewDelegateProxy: DelegateProxy<MapView, MapViewDelegate>, @MainActor DelegateProxyType,
    MapViewDelegate
{
    /// `mapView(_:regionDidChangeAnimated:)`, reported with the arguments `[mapView, animated]`.
    public static let regionDidChangeAnimated: DelegateMethod = "mapView(_:regionDidChangeAnimated:)"
    /// `mapView(_:rendererFor:)`, reported with the arguments `[mapView, overlay]`.
    public static let rendererFor: DelegateMethod = "mapView(_:rendererFor:)"

    /// The proxy of `mapView`; use `RxMapViewDelegateProxy.proxy(for:)` (or `mapView.rx.delegate`) to get
    /// the one proxy of a map.
    public init(mapView: MapView) {
        super.init(parentObject: mapView, delegateProxy: RxMapViewDelegateProxy.self)
    }

    public static func registerKnownImplementations() {
        register { RxMapViewDelegateProxy(mapView: $0) }
    }

    // The book's getter and setter (`currentDelegateFor(_:)`, `setCurrentDelegate(_:toObject:)` in
    // the book's RxCocoa 3), in RxCocoa 6's spelling.

    public static func currentDelegate(for object: MapView) -> MapViewDelegate? {
        object.delegate
    }

    public static func setCurrentDelegate(_ delegate: MapViewDelegate?, to object: MapView) {
        object.delegate = delegate
    }

    public func mapView(_ mapView: MapView, regionDidChangeAnimated animated: Bool) {
        forward(Self.regionDidChangeAnimated, [mapView, animated]) {
            $0.mapView(mapView, regionDidChangeAnimated: animated)
        }
    }

    public func mapView(_ mapView: MapView, rendererFor overlay: MapOverlay) -> OverlayRenderer {
        forward(Self.rendererFor, [mapView, overlay], default: OverlayRenderer(overlay: overlay)) {
            $0.mapView(mapView, rendererFor: overlay)
        }
    }
}

@MainActor
extension Reactive where Base: MapView {
    /// The map's delegate proxy, installed as its delegate (the delegate it had becomes the forward
    /// delegate), as the book's `mapView.rx.delegate`.
    public var delegate: DelegateProxy<MapView, MapViewDelegate> {
        RxMapViewDelegateProxy.proxy(for: base)
    }

    /// Makes `delegate` the proxy's forward delegate until the returned disposable is disposed: it is
    /// still called for every delegate method and answers the ones with a result
    /// (`mapView(_:rendererFor:)`), as the book's `mapView.rx.setDelegate(self)`. Held weakly.
    public func setDelegate(_ delegate: MapViewDelegate) -> Disposable {
        RxMapViewDelegateProxy.installForwardDelegate(delegate, retainDelegate: false, onProxyForObject: base)
    }

    /// Each change of region, with whether it was animated (`mapView(_:regionDidChangeAnimated:)`).
    public var regionDidChangeAnimated: ControlEvent<Bool> {
        let source = delegate.methodInvoked(RxMapViewDelegateProxy.regionDidChangeAnimated).map { arguments in
            // As the book: a value that is not a Bool (there is none) reads as not animated.
            (arguments[1] as? Bool) ?? false
        }
        return ControlEvent(events: source)
    }

    /// The region shown: the current one on subscription and each new one; a region bound to it is
    /// shown without animation (and, as any change, reported by `regionDidChangeAnimated`).
    public var region: ControlProperty<CoordinateRegion> {
        mapProperty(\.region) { map, region in map.setRegion(region, animated: false) }
    }

    /// The centre of the map: the current one on subscription and after each change of region; a
    /// coordinate bound to it centres the map there, keeping the zoom.
    public var centerCoordinate: ControlProperty<LocationCoordinate2D> {
        mapProperty(\.centerCoordinate) { map, center in map.setCenter(center, animated: false) }
    }

    /// Centres the map on each coordinate, keeping the zoom, animated: the binding property of the
    /// book's challenge 1 ("focus the map on a given point"), which `geoSearch` and `textSearch`
    /// results are bound to.
    public var location: Binder<LocationCoordinate2D> {
        Binder(base) { map, coordinate in map.setCenter(coordinate, animated: true) }
    }

    /// Replaces the map's overlays with each array, as the book's `rx.overlays`: the old ones are
    /// removed and the new ones added (each asking the delegate for its renderer).
    public var overlays: Binder<[MapOverlay]> {
        Binder(base) { map, overlays in
            map.removeOverlays(map.overlays)
            map.addOverlays(overlays)
        }
    }

    private func mapProperty<T>(_ getter: @escaping (MapView) -> T, setter: @escaping (MapView, T) -> Void)
        -> ControlProperty<T>
    {
        // Held weakly, so that neither the sequence nor the property keeps the map alive; the changes
        // come from the proxy, whose sequences complete when the map goes.
        weak let weakMap: MapView? = base
        let changes = regionDidChangeAnimated.asObservable()
        let values = Observable<T>.deferred {
            guard let map = weakMap else { return .empty() }
            return changes.compactMap { _ in weakMap.map(getter) }.startWith(getter(map))
        }
        return ControlProperty(values: values, valueSink: Binder(base as MapView, binding: setter))
    }
}
