import Dispatch
@_spi(RxInternal) import RxSwift
import Synchronization

/// What a delegate proxy type declares: how to make its proxies, and how to read and set the
/// delegate of its parent objects.
///
/// One proxy exists per parent object and delegate protocol; ``proxy(for:)`` makes it the first time
/// (with the factory ``register(make:)`` recorded) and installs it as the object's delegate, keeping
/// the delegate that was there as its forward delegate.
///
/// RxSwift: `DelegateProxyType` (RxCocoa). Proxies are kept in a lock-guarded table keyed weakly by
/// their parent object (there are no associated objects off Darwin): a proxy lives as long as its
/// parent. Nothing tells the table when a parent goes, so it checks: whenever it is used, and on the
/// main queue every quarter of a second while it holds proxies; a proxy whose parent is gone is then
/// released (and its sequences complete) on that thread. The table itself is thread-safe, but
/// `proxy(for:)` reads and sets the object's delegate: call it where the object may be used (the
/// main thread for UI objects; RxCocoa requires the main thread).
public protocol DelegateProxyType: AnyObject {
    /// The type of the objects whose delegate the proxy is.
    associatedtype ParentObject: AnyObject
    /// The delegate protocol.
    associatedtype Delegate

    /// Registers the factories of this proxy type (with ``register(make:)``) for every parent class
    /// it serves. Called once, the first time a proxy of this type is needed.
    static func registerKnownImplementations()

    /// The delegate `object` has now.
    static func currentDelegate(for object: ParentObject) -> Delegate?

    /// Makes `delegate` the delegate of `object`.
    static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject)

    /// The delegate calls are forwarded to.
    func forwardToDelegate() -> Delegate?

    /// Makes `forwardToDelegate` the delegate calls are forwarded to.
    func setForwardToDelegate(_ forwardToDelegate: Delegate?, retainDelegate: Bool)
}

/// An object with a `delegate` property: proxies of it need not write `currentDelegate(for:)` and
/// `setCurrentDelegate(_:to:)`.
///
/// RxSwift: `HasDelegate` (RxCocoa).
public protocol HasDelegate: AnyObject {
    /// The delegate protocol.
    associatedtype Delegate

    /// The object's delegate.
    var delegate: Delegate? { get set }
}

extension DelegateProxyType where ParentObject: HasDelegate, Self.Delegate == ParentObject.Delegate {
    /// The `delegate` of `object`.
    public static func currentDelegate(for object: ParentObject) -> Delegate? {
        object.delegate
    }

    /// Sets the `delegate` of `object`.
    public static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject) {
        object.delegate = delegate
    }
}

/// An object with a `dataSource` property: proxies of it need not write `currentDelegate(for:)` and
/// `setCurrentDelegate(_:to:)`.
///
/// RxSwift: `HasDataSource` (RxCocoa).
public protocol HasDataSource: AnyObject {
    /// The data source protocol.
    associatedtype DataSource

    /// The object's data source.
    var dataSource: DataSource? { get set }
}

extension DelegateProxyType where ParentObject: HasDataSource, Self.Delegate == ParentObject.DataSource {
    /// The `dataSource` of `object`.
    public static func currentDelegate(for object: ParentObject) -> Delegate? {
        object.dataSource
    }

    /// Sets the `dataSource` of `object`.
    public static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject) {
        object.dataSource = delegate
    }
}

extension DelegateProxyType {
    /// Records `make` as the factory of this proxy type's proxies for objects of class `Parent` (and
    /// its subclasses that have no factory of their own).
    public static func register<Parent>(make: @escaping (Parent) -> Self) {
        let factory = ProxyFactory { object in make(object as! Parent) }
        ProxyRegistry.shared.register(factory, delegate: delegateKey, parent: ObjectIdentifier(Parent.self))
    }

    /// The proxy of `object`, made and installed as its delegate if it has none yet. If the object's
    /// delegate was changed since, the new delegate becomes the forward delegate and the proxy is
    /// installed again.
    ///
    /// RxSwift: the same (RxCocoa).
    public static func proxy(for object: ParentObject) -> Self {
        let proxy = ProxyRegistry.shared.proxy(for: object, delegate: delegateKey) {
            registerKnownImplementations()
        } make: {
            createProxy(for: object)
        }
        guard let proxy = proxy as? Self else {
            rxCocoaFatalError("\(type(of: proxy)) is registered for \(Delegate.self), not \(Self.self)")
        }
        guard let proxyAsDelegate = proxy as? Delegate else {
            rxCocoaFatalError("\(Self.self) must conform to \(Delegate.self)")
        }
        let current = currentDelegate(for: object)
        if current.map({ $0 as AnyObject }) !== (proxy as AnyObject) {
            proxy.setForwardToDelegate(current, retainDelegate: false)
            setCurrentDelegate(proxyAsDelegate, to: object)
        }
        return proxy
    }

    /// Makes `forwardDelegate` the forward delegate of `object`'s proxy until the returned
    /// disposable is disposed (which removes it again).
    ///
    /// RxSwift: the same (RxCocoa).
    public static func installForwardDelegate(
        _ forwardDelegate: Delegate, retainDelegate: Bool, onProxyForObject object: ParentObject
    ) -> Disposable {
        let proxy = proxy(for: object)
        proxy.setForwardToDelegate(forwardDelegate, retainDelegate: retainDelegate)
        let installed = UncheckedBox(proxy)
        return Disposables.create {
            installed.value?.setForwardToDelegate(nil, retainDelegate: retainDelegate)
            installed.value = nil
        }
    }

    /// A new proxy for `object`, made by the factory registered for its class or its nearest
    /// superclass.
    public static func createProxy(for object: AnyObject) -> Self {
        guard let proxy = ProxyRegistry.shared.make(for: object, delegate: delegateKey) as? Self else {
            rxCocoaFatalError(
                "No \(Self.self) is registered for \(type(of: object)): call \(Self.self).register(make:) "
                    + "in registerKnownImplementations()")
        }
        return proxy
    }

    /// The key of the delegate protocol: one proxy per object and protocol.
    static var delegateKey: ObjectIdentifier { ObjectIdentifier(Delegate.self) }
}

/// A mutable reference handed to a disposal closure.
///
/// Thread-safety: disposal runs once (`Disposables.create` guarantees it).
private final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value?

    init(_ value: Value) {
        self.value = value
    }
}

/// A factory of proxies, erased over the parent type.
struct ProxyFactory {
    let make: (AnyObject) -> AnyObject
}

/// The factories and the live proxies of every delegate proxy type.
///
/// Thread-safety: all state is behind `lock`; factories and `registerKnownImplementations` run
/// outside it.
final class ProxyRegistry: @unchecked Sendable {
    static let shared = ProxyRegistry()

    private struct Entry {
        weak var parent: AnyObject?
        let proxy: AnyObject
    }

    private struct Key: Hashable {
        let parent: ObjectIdentifier
        let delegate: ObjectIdentifier
    }

    /// How often the table looks for proxies whose parent is gone while it holds any.
    static let sweepInterval: DispatchTimeInterval = .milliseconds(250)

    private let lock = Mutex<Void>(())
    @exclusivity(unchecked) private var sweepScheduled = false
    @exclusivity(unchecked) private var factories: [ObjectIdentifier: [ObjectIdentifier: ProxyFactory]] = [:]
    @exclusivity(unchecked) private var registeredDelegates: Set<ObjectIdentifier> = []
    @exclusivity(unchecked) private var proxies: [Key: Entry] = [:]

    func register(_ factory: ProxyFactory, delegate: ObjectIdentifier, parent: ObjectIdentifier) {
        lock.locked { factories[delegate, default: [:]][parent] = factory }
    }

    /// The live proxy of `object` for `delegate`, or a new one from `make` (after `registerOnce` ran
    /// once for `delegate`).
    func proxy(
        for object: AnyObject, delegate: ObjectIdentifier, registerOnce: () -> Void, make: () -> AnyObject
    ) -> AnyObject {
        let key = Key(parent: ObjectIdentifier(object), delegate: delegate)
        let (existing, mustRegister, dead): (AnyObject?, Bool, [Entry]) = lock.locked {
            let dead = removeEntriesOfDeadParentsLocked()
            let entry = proxies[key]
            let existing = entry?.parent === object ? entry?.proxy : nil
            return (existing, registeredDelegates.insert(delegate).inserted, dead)
        }
        // The proxies of dead parents are released here, outside the lock: their deinit completes
        // their sequences, which calls out.
        withExtendedLifetime(dead) {}
        if let existing { return existing }
        if mustRegister { registerOnce() }
        let made = make()
        let (proxy, mustScheduleSweep): (AnyObject, Bool) = lock.locked {
            // Another thread may have made one meanwhile: the first one stays.
            if let entry = proxies[key], entry.parent === object { return (entry.proxy, false) }
            proxies[key] = Entry(parent: object, proxy: made)
            return (made, claimSweepLocked())
        }
        if mustScheduleSweep { scheduleSweep() }
        return proxy
    }

    /// Whether the caller must schedule a sweep (none is scheduled yet).
    private func claimSweepLocked() -> Bool {
        if sweepScheduled { return false }
        sweepScheduled = true
        return true
    }

    private func scheduleSweep() {
        DispatchQueue.main.asyncAfter(deadline: .now() + Self.sweepInterval) { [self] in
            sweep()
        }
    }

    /// Releases the proxies whose parent is gone; schedules the next sweep while proxies remain.
    private func sweep() {
        let (dead, again): ([Entry], Bool) = lock.locked {
            let dead = removeEntriesOfDeadParentsLocked()
            sweepScheduled = !proxies.isEmpty
            return (dead, sweepScheduled)
        }
        withExtendedLifetime(dead) {}
        if again { scheduleSweep() }
    }

    /// A new proxy for `object`, from the factory of its class or its nearest superclass.
    func make(for object: AnyObject, delegate: ObjectIdentifier) -> AnyObject? {
        let table = lock.locked { factories[delegate] ?? [:] }
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            if let factory = table[ObjectIdentifier(current.subjectType)] {
                return factory.make(object)
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The number of proxies whose parent is alive (for tests).
    var count: Int {
        let (count, dead) = lock.locked { (proxies.count, removeEntriesOfDeadParentsLocked()) }
        withExtendedLifetime(dead) {}
        return count - dead.count
    }

    /// Removes the entries whose parent is gone and returns them, to be released after unlocking.
    private func removeEntriesOfDeadParentsLocked() -> [Entry] {
        var dead: [Entry] = []
        for (key, entry) in proxies where entry.parent == nil {
            dead.append(entry)
            proxies[key] = nil
        }
        return dead
    }
}

func rxCocoaFatalError(_ message: String, file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError(message, file: file, line: line)
}
