import RxCocoa
import RxSwift

extension LocationManager: @MainActor HasDelegate {}

/// The location manager's delegate proxy, written as the RxSwift book's "Intermediate RxCocoa"
/// writes `RxCLLocationManagerDelegateProxy`.
///
/// Linux has no Objective-C message forwarding, so the proxy implements the two delegate methods
/// itself; each reports its call under a `DelegateMethod` name (where the book writes `#selector`)
/// and forwards it to the delegate the manager had before (or one installed with
/// `rx.setDelegate(_:)`).
///
/// Main actor, as the manager is, with both conformances isolated to it (SE-0470): RxCocoa's
/// `DelegateProxyType` and ``LocationManagerDelegate`` are nonisolated, as `CLLocationManagerDelegate`
/// is, and the manager calls its delegate on the main actor.
@MainActor
public final class RxLocationManagerDelegateProxy: DelegateProxy<LocationManager, LocationManagerDelegate>,
    @MainActor DelegateProxyType, @MainActor LocationManagerDelegate
{
    /// `locationManager(_:didUpdateLocations:)`.
    public static let didUpdateLocations: DelegateMethod = "locationManager(_:didUpdateLocations:)"
    /// `locationManager(_:didFailWithError:)`.
    public static let didFailWithError: DelegateMethod = "locationManager(_:didFailWithError:)"

    /// The manager this proxy serves.
    public init(locationManager: LocationManager) {
        super.init(parentObject: locationManager, delegateProxy: RxLocationManagerDelegateProxy.self)
    }

    public static func registerKnownImplementations() {
        self.register { RxLocationManagerDelegateProxy(locationManager: $0) }
    }

    public func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
        forward(Self.didUpdateLocations, [manager, locations]) {
            $0.locationManager(manager, didUpdateLocations: locations)
        }
    }

    public func locationManager(_ manager: LocationManager, didFailWithError error: Error) {
        forward(Self.didFailWithError, [manager, error]) {
            $0.locationManager(manager, didFailWithError: error)
        }
    }
}

@MainActor
extension Reactive where Base: LocationManager {
    /// The manager's delegate proxy (installed as its delegate on first use).
    public var delegate: DelegateProxy<LocationManager, LocationManagerDelegate> {
        RxLocationManagerDelegateProxy.proxy(for: base)
    }

    /// Every `locationManager(_:didUpdateLocations:)` call's locations, as the book's
    /// `rx.didUpdateLocations` (`parameters[1] as! [CLLocation]`).
    public var didUpdateLocations: Observable<[Location]> {
        delegate.methodInvoked(RxLocationManagerDelegateProxy.didUpdateLocations)
            .map { parameters in parameters[1] as! [Location] }
    }

    /// Every `locationManager(_:didFailWithError:)` call's error, as an element (an error of the
    /// manager does not end the sequence; it completes when the manager goes away).
    public var didFailWithError: Observable<Error> {
        delegate.methodInvoked(RxLocationManagerDelegateProxy.didFailWithError)
            .map { parameters in parameters[1] as! Error }
    }

    /// Makes `delegate` the proxy's forward delegate until the returned disposable is disposed, so a
    /// delegate and the `rx` sequences can be used together (`installForwardDelegate`).
    public func setDelegate(_ delegate: LocationManagerDelegate) -> Disposable {
        RxLocationManagerDelegateProxy.installForwardDelegate(delegate, retainDelegate: false, onProxyForObject: base)
    }
}
