import RxSwift
import Synchronization

extension ObservableType {
    /// Tags this sequence for the attached ``Inspector`` (rxjs-spy's `tag`): every subscription made
    /// through the returned sequence is recorded under `tag` — subscribe, each element (its
    /// `String(describing:)`), error, completion and disposal, with the time, the thread and a
    /// subscription number — and can be paused, stepped and resumed by tag.
    ///
    /// Passes every event through unchanged, on the thread it arrived on, unless the tag is paused.
    /// Completes, errors and disposes with its source; uses no scheduler.
    ///
    /// With no inspector attached (``Inspector/attach()``) each element costs one relaxed atomic load
    /// on top of the delivery itself: no lock, no allocation. Works the same in release builds.
    ///
    /// RxJS: rxjs-spy's `tag(…)`. RxSwift: none (`debug(_:)` prints lines).
    @inlinable
    public func inspect(_ tag: String) -> Observable<Element> {
        // Captured rather than read through the global's accessor on every element (a call each).
        let attached = InspectorAttachment.shared
        // A library stage rather than `Observable.create` around a `subscribe`: a subscription nobody
        // disposes is then released with its source, as through `map` (a dropped subject let go of a
        // `create` chain's inner subscriber, but not of the chain).
        // Types spelled out: a build once failed to infer `Element` from these multi-statement closures.
        return rxStage { (observer: AnyObserver<Element>) -> RxStageHandlers<Element> in
            let probe = InspectProbe(tag: tag)
            probe.subscribed()
            return RxStageHandlers<Element>(
                next: { (element: Element) in
                    if attached.isAttached.load(ordering: .relaxed) {
                        inspectNext(element, probe, observer)
                    } else {
                        observer.onNext(element)
                    }
                },
                terminate: { (event: Event<Element>) in
                    if attached.isAttached.load(ordering: .relaxed) {
                        probe.terminate(event, to: observer)
                    } else {
                        observer.on(event)
                    }
                },
                disposed: { probe.disposed() },
                released: { release in
                    if attached.isAttached.load(ordering: .relaxed) {
                        probe.released(release)
                    } else {
                        release()
                    }
                })
        }
    }
}

/// The inspected path of an element, out of line so that the unattached path stays small, and
/// inlinable so that it is specialized where the element's type is concrete: in the probe's
/// unspecialized code, describing and delivering an element takes dynamic casts and a metadata lookup
/// of `Event<Element>` (see the `inspect("x")`, inspector attached, benchmark).
@inlinable @inline(never)
func inspectNext<Element>(_ element: Element, _ probe: InspectProbe, _ observer: AnyObserver<Element>) {
    let deliverNow = probe.next(String(describing: element)) { { observer.onNext(element) } }
    if deliverNow { observer.onNext(element) }
}

/// Whether an ``Inspector`` is attached: the one check `inspect` makes per element when none is.
@usableFromInline
final class InspectorAttachment: Sendable {
    @usableFromInline
    static let shared = InspectorAttachment()

    @usableFromInline
    let isAttached = Atomic<Bool>(false)
}

var inspectorIsAttached: Bool {
    InspectorAttachment.shared.isAttached.load(ordering: .relaxed)
}

/// Numbers the subscriptions of every `inspect` stage of the process.
private let nextSubscriptionID = Atomic<Int>(0)

/// One subscription of an `inspect` stage, as the attached inspector sees it.
///
/// Thread-safety: immutable; what it reports is kept by the inspector under the inspector's locks.
@usableFromInline
final class InspectProbe: Sendable {
    let tag: String
    let id: Int

    @usableFromInline
    init(tag: String) {
        self.tag = tag
        id = nextSubscriptionID.wrappingAdd(1, ordering: .relaxed).newValue
    }

    @usableFromInline
    func subscribed() {
        guard inspectorIsAttached, let inspector = Inspector.attached else { return }
        _ = inspector.record(tag, .subscribe, nil, subscription: id, holdable: false) { {} }
    }

    /// The inspected path of an element: records `description`; returns whether the caller delivers
    /// the element now, or it was held (then `deliver` made the closure that delivers it later).
    @usableFromInline
    func next(_ description: String, deliver: () -> (() -> Void)) -> Bool {
        guard let inspector = Inspector.attached else { return true }
        return inspector.record(tag, .next, description, subscription: id, holdable: true, deliver: deliver)
    }

    @usableFromInline
    func terminate<Element>(_ event: Event<Element>, to observer: AnyObserver<Element>) {
        guard let inspector = Inspector.attached else { return observer.on(event) }
        let deliverNow: Bool
        switch event {
        case .error(let error):
            deliverNow = inspector.record(
                tag, .error, String(describing: error), subscription: id, holdable: true
            ) { { observer.on(event) } }
        default:
            deliverNow = inspector.record(tag, .completed, nil, subscription: id, holdable: true) {
                { observer.on(event) }
            }
        }
        if deliverNow { observer.on(event) }
    }

    /// The source let go of this subscription: the chain below is released (and its cleanup runs)
    /// now, or, if notifications of this subscription are held, after the last of them is delivered,
    /// as `observe(on:)` delivers what it queued before letting go.
    @usableFromInline
    func released(_ release: @escaping () -> Void) {
        guard let inspector = Inspector.attached else { return release() }
        if inspector.holdRelease(tag, subscription: id, release: release) { release() }
    }

    @usableFromInline
    func disposed() {
        guard inspectorIsAttached, let inspector = Inspector.attached else { return }
        _ = inspector.record(tag, .dispose, nil, subscription: id, holdable: false) { {} }
    }
}
