import Synchronization

/// Factory functions for the common disposables.
public struct Disposables {
    private init() {}

    /// A disposable that does nothing when disposed. The same shared instance is returned every time.
    public static func create() -> Disposable {
        NopDisposable.instance
    }

    /// A disposable that runs `dispose` once, on the first call to `dispose()`.
    ///
    /// `dispose` runs on whichever thread disposes (a terminal event's, a bag's, a `Task`'s), by
    /// contract, so unlike operator closures it is not checked to run on the actor it was written in
    /// (see RxCocoa's "Swift 6 and actors"): let it capture only what is safe to use from any thread.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both `disposable1` and `disposable2`.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes all three disposables.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable)
        -> Cancelable
    {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all the given disposables.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
        _ disposables: Disposable...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes all the given disposables.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

/// The shared disposable that does nothing.
final class NopDisposable: Disposable {
    static let instance = NopDisposable()
    private init() {}
    func dispose() {}
}

/// Runs a closure on the first `dispose()`.
///
/// Thread-safety: only the thread that flips `disposed` touches `action` after `init`.
final class AnonymousDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private var action: (() -> Void)?
    private let disposed = Atomic<Bool>(false)

    init(_ action: @escaping () -> Void) {
        self.action = action
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = self.action
        self.action = nil
        action?()
    }
}

/// Disposes two disposables once.
///
/// Thread-safety: both references are taken out under a `Mutex`, disposed after unlocking.
final class BinaryDisposable: DisposeBase, Cancelable, @unchecked Sendable {
    private let pair: Mutex<(Disposable, Disposable)?>
    private let disposed = Atomic<Bool>(false)

    init(_ disposable1: Disposable, _ disposable2: Disposable) {
        pair = Mutex((disposable1, disposable2))
    }

    var isDisposed: Bool { disposed.load(ordering: .acquiring) }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let pair = self.pair.withAnnotatedLock { pair in
            let taken = pair
            pair = nil
            return taken
        }
        pair?.0.dispose()
        pair?.1.dispose()
    }
}
