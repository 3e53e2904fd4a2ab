/// An observer that binds elements to a target object: it holds the target weakly, runs the binding
/// on a scheduler (a new `MainScheduler()` by default), and never receives errors (an error is a
/// programmer error: it asserts in debug builds and is ignored in release builds).
///
/// Each binder gets its own main scheduler by default, as in RxSwift: a binding reached from inside
/// another main-scheduler delivery (`observe(on: MainScheduler.instance)`) then runs at once instead of
/// being queued behind that delivery.
///
/// Thread-safety: `Sendable`; every element is handed to the binder's scheduler, which runs the
/// binding (on the main thread by default).
public struct Binder<Value>: ObserverType, @unchecked Sendable {
    /// The element type.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder for `target` that runs `binding` on `scheduler`.
    public init<Target: AnyObject>(
        _ target: Target, scheduler: ImmediateSchedulerType = MainScheduler(),
        binding: @escaping (Target, Value) -> Void, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    ) {
        let binding =
            isolation == nil
            ? binding : rxIsolationChecked(binding, isolation, "Binder(binding:)", callerFileID, callerLine)
        weak let weakTarget = target
        let box = UncheckedSendable(binding)
        self.binding = { event in
            switch event {
            case .next(let element):
                let payload = UncheckedSendable(element)
                _ = scheduler.schedule(payload) { payload in
                    if let target = weakTarget {
                        box.value(target, payload.value)
                    }
                    return Disposables.create()
                }
            case .error(let error):
                rxBindingError(error)
            case .completed:
                break
            }
        }
    }

    /// Delivers `event` to the binding.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// Erases the binder's type.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}

func rxBindingError(_ error: Swift.Error) {
    let message = "Binding error: \(error)"
    #if DEBUG
        assertionFailure(message)
    #else
        print(message)
    #endif
}
