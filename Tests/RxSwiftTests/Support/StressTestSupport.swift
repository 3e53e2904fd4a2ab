import Dispatch
import Foundation
@_spi(RxInternal) import RxSwift
import Synchronization
import XCTest

// Shared by the thread-sanitizer stress tests of the operators where several sequences meet.

/// Runs every body on its own thread, started together; returns when all are done. Threads, not the
/// global queue: with more bodies than cores, the queue may run them one after another, and nothing
/// would race.
func race(_ bodies: [@Sendable () -> Void], file: StaticString = #filePath, line: UInt = #line) {
    let start = DispatchSemaphore(value: 0)
    let done = DispatchGroup()
    for body in bodies {
        done.enter()
        Thread {
            start.wait()
            body()
            done.leave()
        }.start()
    }
    for _ in bodies { start.signal() }
    XCTAssertEqual(done.wait(timeout: .now() + 10), .success, "a feeding thread hung", file: file, line: line)
}

/// Like `race`, with the bodies released together by a spinning barrier rather than one semaphore
/// signal each: they start within a fraction of a microsecond, as the narrowest races need.
func tightRace(_ bodies: [@Sendable () -> Void], file: StaticString = #filePath, line: UInt = #line) {
    let arrived = Atomic<Int>(0)
    let count = bodies.count
    race(
        bodies.map { body in
            {
                arrived.wrappingAdd(1, ordering: .acquiringAndReleasing)
                var spins = 0
                while arrived.load(ordering: .acquiring) < count {
                    spins += 1
                    if spins % 1_000 == 0 { sched_yield() }
                }
                body()
            }
        }, file: file, line: line)
}

/// Checks what a stress test's recorder saw: one terminal event, nothing after it, never two calls at
/// once.
func assertGrammar<Element>(
    _ recorder: GrammarRecorder<Element>, file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertTrue(recorder.waitForTerminal(seconds: 5), "no terminal event", file: file, line: line)
    XCTAssertEqual(recorder.terminals, 1, file: file, line: line)
    XCTAssertEqual(recorder.violations, [], file: file, line: line)
    XCTAssertEqual(recorder.maximumConcurrentCalls, 1, "concurrent delivery", file: file, line: line)
}

/// Pauses a feeding thread now and then, so that the threads interleave.
func stressPause(_ value: Int) {
    if value % 8 == 7 { usleep(10) }
}

/// A thread that calls `send` with 0, 1, 2, … as fast as it can until ``stop()``.
final class FloodingThread: @unchecked Sendable {
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(_ send: @escaping @Sendable (Int) -> Void) {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            started.signal()
            var value = 0
            while !self.stopped.load(ordering: .acquiring) {
                send(value)
                value += 1
            }
            finished.signal()
        }
        thread.start()
        started.wait()
    }

    /// Stops the thread and waits until its last call has returned.
    func stop() {
        stopped.store(true, ordering: .releasing)
        finished.wait()
    }
}

/// A mutable reference shared between threads in a test, guarded by a mutex.
final class Shared<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>
    init(_ value: Value) { storage = Mutex(value) }
    var value: Value {
        get { storage.withAnnotatedLock { $0 } }
        set { storage.withAnnotatedLock { $0 = newValue } }
    }
    func update<R>(_ body: (inout Value) -> R) -> R { storage.withAnnotatedLock { body(&$0) } }
}

/// Holds a subscription so that code running inside it (a selector, an observer) can dispose it.
final class DisposableBox: @unchecked Sendable {
    private let lock = NSLock()
    private var disposable: Disposable?
    func set(_ d: Disposable) {
        lock.lock()
        disposable = d
        lock.unlock()
    }
    /// Disposes the subscription and forgets it (which breaks the test's own cycle: the
    /// subscription's selector captures this box).
    func dispose() {
        lock.lock()
        let d = disposable
        disposable = nil
        lock.unlock()
        d?.dispose()
    }
}

/// Carries a non-Sendable value into a `race` body in these tests.
final class UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
