import Dispatch
@_spi(RxBlocking) @_spi(RxInternal) import RxSwift
import Synchronization

/// One blocking wait: subscribes, collects elements until the source terminates, `max` elements
/// satisfy the predicate or the timeout passes, then disposes the subscription.
///
/// Thread-safety: the collected state is guarded by `lock`; the predicate runs outside it, on the
/// source's (serialized) delivery thread.
final class BlockingCollector<Element>: ObserverType, @unchecked Sendable {
    private let source: Observable<Element>
    private let max: Int?
    private let predicate: (Element) throws -> Bool
    private let subscription = SingleAssignmentDisposable()
    private let lock = Mutex<Void>(())
    private var elements: [Element] = []
    private var error: (any Error)?
    private var isFinished = false
    private let waitsOnMainThread = MainThreadPump.isOnMainThread
    /// Signals a waiting background thread; a waiting main thread is woken through the pump instead.
    private let finished = DispatchSemaphore(value: 0)

    init(source: Observable<Element>, max: Int?, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.max = max
        self.predicate = predicate
    }

    func run(timeout: Double?) -> MaterializedSequenceResult<Element> {
        defer { subscription.dispose() }
        let deadline: DispatchTime = timeout.map { .now() + $0 } ?? .distantFuture
        let sourceFinished = waitFor(deadline)
        return lock.withAnnotatedLock { _ in
            // The source may still call in until it is disposed; `isFinished` makes it leave the
            // elements alone. It may also have finished just after the deadline: its answer wins.
            if !sourceFinished && !isFinished {
                isFinished = true
                error = RxError.timeout
            }
            if let error { return .failed(elements: elements, error: error) }
            return .completed(elements: elements)
        }
    }

    /// Returns whether the source finished before `deadline`.
    private func waitFor(_ deadline: DispatchTime) -> Bool {
        guard waitsOnMainThread else {
            subscribe()
            return finished.wait(timeout: deadline) == .success
        }
        var subscribed = false
        return MainThreadPump.run(until: deadline) {
            // Subscribing inside the pump lets it run main-scheduler work that subscribing queues
            // (a `subscribe(on: MainScheduler.asyncInstance)`, say), which would otherwise wait in the
            // main queue behind this blocked thread.
            if !subscribed {
                subscribed = true
                subscribe()
            }
            return lock.withAnnotatedLock { _ in isFinished }
        }
    }

    private func subscribe() {
        // Inside a trampoline, as RxSwift subscribes: a synchronous source (`from`, `generate`, …) then
        // queues its steps behind the subscription instead of running them all inside `subscribe`,
        // so `first()` can dispose it at the first element. Inside a running trampoline its steps
        // queue anyway, so the subscription is made at once (not queued behind this blocked action).
        guard CurrentThreadScheduler.isScheduleRequired else {
            subscription.setDisposable(source.subscribe(self))
            return
        }
        _ = CurrentThreadScheduler.instance.schedule(self) { collector in
            collector.subscription.setDisposable(collector.source.subscribe(collector))
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if lock.withAnnotatedLock({ _ in isFinished }) { return }
            let matches: Bool
            do {
                matches = try predicate(element)
            } catch {
                finish(error: error)
                return
            }
            guard matches else { return }
            let reachedMax: Bool = lock.withAnnotatedLock { _ in
                guard !isFinished else { return false }
                elements.append(element)
                guard let max, elements.count >= max else { return false }
                isFinished = true
                return true
            }
            if reachedMax { stopWaiting() }
        case .error(let error):
            finish(error: error)
        case .completed:
            finish(error: nil)
        }
    }

    private func finish(error: (any Error)?) {
        let first: Bool = lock.withAnnotatedLock { _ in
            guard !isFinished else { return false }
            isFinished = true
            self.error = error
            return true
        }
        if first { stopWaiting() }
    }

    private func stopWaiting() {
        subscription.dispose()
        if waitsOnMainThread {
            // Delivery on the main thread is the pump itself running, which re-checks on return.
            if !MainThreadPump.isOnMainThread { MainThreadPump.wake() }
        } else {
            finished.signal()
        }
    }
}
