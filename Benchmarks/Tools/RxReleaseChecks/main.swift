import Dispatch
import Foundation
import RxBlocking
import RxSwift

// Usage: RxReleaseChecks
// The test suite's sturdiness checks, in a release build (the test suite runs in debug builds,
// where `create` keeps its own sink and frames are larger): a subscription through operators is
// released with its dropped subject, the cleanup attached to it running then, once; deep chains
// neither overflow the main thread's stack nor a 512 KiB thread's; `toBlocking` works inside
// another subscription's delivery and honours its timeout on an endless source. Prints each check
// and exits with status 1 if any fails. CI runs it.

nonisolated(unsafe) var failures = 0

func check(_ name: String, _ passed: Bool) {
    print("\(passed ? "ok  " : "FAIL") \(name)")
    if !passed { failures += 1 }
}

final class Owner {}

/// Whether a closure capturing an owner, subscribed through `chain` to a subject made by `make`, is
/// released when the subject is dropped undisposed.
func releasedWithSubject(
    _ make: () -> Observable<Int>, send: (Observable<Int>) -> Void, _ chain: (Observable<Int>) -> Observable<Int>
) -> Bool {
    weak var weakOwner: Owner?
    do {
        let owner = Owner()
        weakOwner = owner
        let source = make()
        _ = chain(source).subscribe(onNext: { _ in _ = owner })
        send(source)
    }
    return weakOwner == nil
}

let subjects: [(String, () -> Observable<Int>, (Observable<Int>) -> Void)] = [
    ("PublishSubject", { PublishSubject<Int>().asObservable() }, { ($0 as? PublishSubject<Int>)?.onNext(1) }),
    ("BehaviorSubject", { BehaviorSubject(value: 0).asObservable() }, { _ in }),
    (
        "ReplaySubject", { ReplaySubject<Int>.create(bufferSize: 1).asObservable() },
        { ($0 as? ReplaySubject<Int>)?.onNext(1) }
    ),
]
let chains: [(String, (Observable<Int>) -> Observable<Int>)] = [
    ("map", { $0.map { $0 + 1 } }),
    ("filter", { $0.filter { $0 >= 0 } }),
    ("scan", { $0.scan(0, accumulator: +) }),
    ("map+filter", { $0.map { $0 + 1 }.filter { $0 > 0 } }),
    ("40 maps", { (0..<40).reduce($0) { chain, _ in chain.map { $0 + 1 } } }),
    ("share(replay: 1)", { $0.share(replay: 1) }),
    ("merge with itself", { Observable.merge($0, $0.map { $0 * 2 }) }),
]
for (subjectName, make, send) in subjects {
    for (chainName, chain) in chains {
        check("\(chainName) on a dropped \(subjectName) is released", releasedWithSubject(make, send: send, chain))
    }
}

// The cleanup a user attached between a dropped subject and its subscriber runs at the release,
// once: the optimizer may end a local subject's lifetime right after its last use.
final class CountedResource: Disposable, @unchecked Sendable {
    var disposed = 0
    func dispose() { disposed += 1 }
}

func cleanupRunsOnceAtTheRelease() -> Bool {
    var cleanups = 0
    var handle: Disposable?
    do {
        let subject = PublishSubject<Int>()
        handle = subject.do(onDispose: { cleanups += 1 }).map { $0 + 1 }.subscribe(onNext: { _ in })
        subject.onNext(1)
    }
    let atRelease = cleanups
    handle?.dispose()
    return atRelease == 1 && cleanups == 1
}

func resourceDisposedOnceAtTheRelease() -> Bool {
    let resource = CountedResource()
    var handle: Disposable?
    do {
        let subject = PublishSubject<Int>()
        handle = Observable.using({ resource }, observableFactory: { _ in subject.asObservable() }).subscribe()
    }
    let atRelease = resource.disposed
    handle?.dispose()
    return atRelease == 1 && resource.disposed == 1
}

check("do(onDispose:) runs once at a dropped subject's release", cleanupRunsOnceAtTheRelease())
check("using's resource is disposed once at a dropped subject's release", resourceDisposedOnceAtTheRelease())

/// Subscribes and pumps three elements through `maps` chained maps; returns what arrived.
func pump(maps: Int) -> [Int] {
    var received: [Int] = []
    let source = Observable<Int>.create { observer in
        for value in 1...3 { observer.onNext(value) }
        observer.onCompleted()
        return Disposables.create()
    }
    let chain = (0..<maps).reduce(source) { chain, _ in chain.map { $0 + 1 } }
    chain.subscribe(onNext: { received.append($0) }).dispose()
    return received
}

check("100 000 maps on the main thread", pump(maps: 100_000) == [100_001, 100_002, 100_003])

final class Box: @unchecked Sendable { var values: [Int] = [] }
let box = Box()
let done = DispatchSemaphore(value: 0)
let thread = Thread {
    box.values = pump(maps: 10_000)
    done.signal()
}
thread.stackSize = 512 * 1024
thread.start()
done.wait()
check("10 000 maps on a 512 KiB thread", box.values == [10_001, 10_002, 10_003])

var inner: [[Int]] = []
_ = Observable.of(1, 2).subscribe(onNext: { _ in
    inner.append((try? Observable.of(1, 2, 3).toBlocking(timeout: 2).toArray()) ?? [])
})
check("toBlocking inside a running trampoline", inner == [[1, 2, 3], [1, 2, 3]])

let timedOut = DispatchSemaphore(value: 0)
final class Outcome: @unchecked Sendable { var timedOut = false }
let outcome = Outcome()
DispatchQueue.global().async {
    do {
        _ = try Observable.repeatElement(3).toBlocking(timeout: 0.2).toArray()
    } catch RxError.timeout {
        outcome.timedOut = true
    } catch {}
    timedOut.signal()
}
check(
    "toBlocking(timeout:) on an endless synchronous source ends with the timeout",
    timedOut.wait(timeout: .now() + 10) == .success && outcome.timedOut)

if failures > 0 {
    print("\(failures) check(s) failed")
    exit(1)
}
print("all checks passed")
