import Dispatch
import Foundation
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
    /// How the calling thread waits, which decides how a source finishing elsewhere wakes it.
    private var waiter: Waiter = MainThreadPump.isOnMainThread ? .mainRunLoop : .semaphore
    /// When the caller stops waiting, if it gave a timeout. A source that delivers on the waiting
    /// thread itself (an endless synchronous one, or any source inside a trampoline) never lets it
    /// reach its wait: such deliveries check the deadline themselves.
    private var deadline: DispatchTime?
    /// Signals a thread waiting in ``Waiter/semaphore``.
    private let finished = DispatchSemaphore(value: 0)

    private enum Waiter {
        /// Any thread but the main one: sleeps on `finished`.
        case semaphore
        /// The main thread runs its run loop, which runs the main queue.
        case mainRunLoop
        /// The main thread, where its run loop cannot run the main queue, runs RxSwift's
        /// main-scheduler queue itself.
        case mainPump
    }

    init(source: Observable<Element>, max: Int?, predicate: @escaping (Element) throws -> Bool) {
        self.source = source
        self.max = max
        self.predicate = predicate
    }

    func run(timeout: Double?) -> MaterializedSequenceResult<Element> {
        defer { subscription.dispose() }
        let deadline: DispatchTime = timeout.map { .now() + $0 } ?? .distantFuture
        if timeout != nil { lock.withAnnotatedLock { _ in self.deadline = deadline } }
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
        let waitsOnMainThread = lock.withAnnotatedLock { _ in waiter == .mainRunLoop }
        subscribe()
        guard waitsOnMainThread else {
            return finished.wait(timeout: deadline) == .success
        }
        // As RxSwift's run-loop lock: the main thread keeps its run loop, and with it the main queue,
        // running while it waits, so work that anyone queued there (a source delivering through
        // `DispatchQueue.main.async`, main-scheduler work, timers) runs instead of waiting behind
        // this thread. Each pass returns once the run loop has handled something.
        while !isDone {
            let now = DispatchTime.now()
            guard now < deadline else { return false }
            let before: Date =
                deadline == .distantFuture
                ? .distantFuture
                : Date(timeIntervalSinceNow: Double(deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1e9)
            if !RunLoop.main.run(mode: .default, before: before) {
                // Nothing the run loop can serve: this wait was started from a block that the main
                // queue is running, which the run loop cannot re-enter. Main-scheduler work still
                // reaches this thread through RxSwift's main-thread pump; plain main-queue blocks run
                // once the enclosing block returns.
                lock.withAnnotatedLock { _ in waiter = .mainPump }
                return MainThreadPump.run(until: deadline) { isDone }
            }
        }
        return true
    }

    private var isDone: Bool {
        lock.withAnnotatedLock { _ in isFinished }
    }

    private func subscribe() {
        // On a trampoline of its own, as RxSwift subscribes: a synchronous source (`from`, `generate`,
        // …) then queues its steps behind the subscription instead of running them all inside
        // `subscribe`, so `first()` can dispose it at the first element. A trampoline already running
        // on this thread is set aside meanwhile: its queue only runs once this wait returns, so the
        // source's steps queued there would never run.
        CurrentThreadScheduler.runOnOwnTrampoline {
            subscription.setDisposable(source.subscribe(self))
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let state: (finished: Bool, deadline: DispatchTime?) = lock.withAnnotatedLock { _ in
                (isFinished, deadline)
            }
            if state.finished { return }
            if let deadline = state.deadline, DispatchTime.now() >= deadline {
                finish(error: RxError.timeout)
                return
            }
            let matches: Bool
            do {
                matches = try predicate(element)
            } catch {
                finish(error: error)
                return
            }
            guard matches else { return }
            let wake: Waiter? = lock.withAnnotatedLock { _ in
                guard !isFinished else { return nil }
                elements.append(element)
                guard let max, elements.count >= max else { return nil }
                isFinished = true
                return waiter
            }
            if let wake { stopWaiting(wake) }
        case .error(let error):
            finish(error: error)
        case .completed:
            finish(error: nil)
        }
    }

    private func finish(error: (any Error)?) {
        let wake: Waiter? = lock.withAnnotatedLock { _ in
            guard !isFinished else { return nil }
            isFinished = true
            self.error = error
            return waiter
        }
        if let wake { stopWaiting(wake) }
    }

    /// Disposes the subscription and wakes the thread waiting as `waiter`, which was read together
    /// with setting `isFinished`: a main thread that switches to the pump afterwards checks
    /// `isFinished` before it first waits.
    private func stopWaiting(_ waiter: Waiter) {
        subscription.dispose()
        switch waiter {
        case .semaphore:
            finished.signal()
        case .mainRunLoop:
            // Delivery on the main thread comes from something the run loop handles, after which it
            // returns and the wait re-checks. From another thread, a main-queue block wakes it.
            if !MainThreadPump.isOnMainThread { DispatchQueue.main.async {} }
        case .mainPump:
            // Delivery on the main thread is the pump itself running, which re-checks on return.
            if !MainThreadPump.isOnMainThread { MainThreadPump.wake() }
        }
    }
}
