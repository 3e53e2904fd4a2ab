@_spi(RxInternal) import RxSwift
import Synchronization

/// The name of a delegate method, as a delegate proxy reports its calls: the Swift spelling of the
/// method (`"locationManager(_:didUpdateLocations:)"`), declared once by the proxy.
///
/// Off Darwin there are no selectors; a proxy declares a `DelegateMethod` for each method it
/// implements and passes it to ``DelegateProxy/methodInvoked(_:)`` and
/// ``DelegateProxy/sentMessage(_:)``.
public struct DelegateMethod: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's name.
    public let name: String

    /// A method named `name`.
    public init(_ name: String) {
        self.name = name
    }

    /// A method named by a string literal.
    public init(stringLiteral name: String) {
        self.name = name
    }

    /// The method's name.
    public var description: String { name }
}

/// A stand-in delegate that turns the calls it receives into observable sequences and forwards them
/// to the delegate that was there before it (the forward delegate).
///
/// Off Darwin there is no message forwarding: a proxy subclass implements the delegate protocol's
/// methods itself. Each method calls ``forward(_:_:to:)`` with its name, its arguments and the call
/// to make on the forward delegate; a method with a result calls
/// ``forward(_:_:default:to:)``, which answers with the forward delegate's result, or with
/// the given default when there is no forward delegate.
///
/// ```swift
/// final class RxLocationManagerDelegateProxy:
///     DelegateProxy<LocationManager, LocationManagerDelegate>, DelegateProxyType, LocationManagerDelegate
/// {
///     static let didUpdateLocations: DelegateMethod = "locationManager(_:didUpdateLocations:)"
///
///     init(locationManager: LocationManager) {
///         super.init(parentObject: locationManager, delegateProxy: RxLocationManagerDelegateProxy.self)
///     }
///
///     static func registerKnownImplementations() {
///         register { RxLocationManagerDelegateProxy(locationManager: $0) }
///     }
///
///     func locationManager(_ manager: LocationManager, didUpdateLocations locations: [Location]) {
///         forward(Self.didUpdateLocations, [manager, locations]) {
///             $0.locationManager(manager, didUpdateLocations: locations)
///         }
///     }
/// }
/// ```
///
/// The delegate protocol must be class-bound (`AnyObject`), as Cocoa's are: the forward delegate is
/// held weakly unless installed with `retainDelegate: true`.
///
/// Thread-safety: the forward delegate and the per-method subjects are lock-guarded; calls are
/// reported on the thread that makes them. The class is not `Sendable` (so that subclasses need not
/// restate it), as RxCocoa's, an `NSObject`, is not.
///
/// RxSwift: `DelegateProxy` (RxCocoa), which forwards through the Objective-C runtime and names
/// methods by selector.
open class DelegateProxy<P: AnyObject, D> {
    /// The type of the object whose delegate the proxy is.
    public typealias ParentObject = P
    /// The delegate protocol.
    public typealias Delegate = D

    private typealias Subjects = [DelegateMethod: PublishSubject<[Any]>]

    private struct State {
        weak var weakForward: AnyObject?
        var strongForward: AnyObject?
        var sentMessages: Subjects = [:]
        var methodsInvoked: Subjects = [:]
    }

    private let state = Mutex<Void>(())
    @exclusivity(unchecked) private var stateStorage = State()

    /// The object whose delegate the proxy is, held weakly.
    public private(set) weak var parentObject: ParentObject?

    /// Creates the proxy of `parentObject`. `delegateProxy` is the proxy's own type.
    public init<Proxy: DelegateProxyType>(parentObject: ParentObject, delegateProxy: Proxy.Type)
    where Proxy: DelegateProxy<ParentObject, Delegate>, Proxy.ParentObject == ParentObject, Proxy.Delegate == Delegate {
        self.parentObject = parentObject
    }

    deinit {
        let subjects = state.locked {
            Array(stateStorage.sentMessages.values) + Array(stateStorage.methodsInvoked.values)
        }
        for subject in subjects {
            subject.onCompleted()
        }
    }

    /// The calls of `method`, each as its arguments, reported before the call is forwarded to the
    /// forward delegate. Completes when the proxy goes away.
    ///
    /// RxSwift: `sentMessage(_:)` (RxCocoa), keyed by selector.
    open func sentMessage(_ method: DelegateMethod) -> Observable<[Any]> {
        state.locked { subject(for: method, in: \.sentMessages) }.asObservable()
    }

    /// The calls of `method`, each as its arguments, reported after the call was forwarded to the
    /// forward delegate. Completes when the proxy goes away.
    ///
    /// RxSwift: `methodInvoked(_:)` (RxCocoa), keyed by selector.
    open func methodInvoked(_ method: DelegateMethod) -> Observable<[Any]> {
        state.locked { subject(for: method, in: \.methodsInvoked) }.asObservable()
    }

    private func subject(for method: DelegateMethod, in table: WritableKeyPath<State, Subjects>)
        -> PublishSubject<[Any]>
    {
        if let subject = stateStorage[keyPath: table][method] {
            return subject
        }
        let subject = PublishSubject<[Any]>()
        stateStorage[keyPath: table][method] = subject
        return subject
    }

    /// Reports a call of `method` with `arguments`, forwarding it in between to the forward delegate
    /// (if there is one) through `call`. A proxy's implementation of each delegate method calls this.
    public func forward(_ method: DelegateMethod, _ arguments: [Any], to call: (Delegate) -> Void) {
        let (sent, invoked) = state.locked {
            (stateStorage.sentMessages[method], stateStorage.methodsInvoked[method])
        }
        sent?.onNext(arguments)
        if let delegate = forwardToDelegate() {
            call(delegate)
        }
        invoked?.onNext(arguments)
    }

    /// Reports a call of `method` with `arguments` and answers it: with what the forward delegate
    /// answers through `call`, or `defaultValue` when there is no forward delegate.
    public func forward<Result>(
        _ method: DelegateMethod, _ arguments: [Any], default defaultValue: @autoclosure () -> Result,
        to call: (Delegate) -> Result
    ) -> Result {
        var result: Result?
        forward(method, arguments) { delegate in result = call(delegate) }
        return result ?? defaultValue()
    }

    /// The delegate calls are forwarded to, if any.
    open func forwardToDelegate() -> Delegate? {
        state.locked { stateStorage.strongForward ?? stateStorage.weakForward } as? Delegate
    }

    /// Makes `delegate` the one calls are forwarded to, held strongly if `retainDelegate`, weakly
    /// otherwise.
    open func setForwardToDelegate(_ delegate: Delegate?, retainDelegate: Bool) {
        let object = delegate.map { $0 as AnyObject }
        state.locked {
            stateStorage.weakForward = object
            stateStorage.strongForward = retainDelegate ? object : nil
        }
    }
}
