@_spi(RxInternal) import RxSwift
import Synchronization

/// Counts how often something ran; shared across threads by the stress tests.
final class Counter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .acquiring) }

    func increment() {
        count.wrappingAdd(1, ordering: .acquiringAndReleasing)
    }
}

/// A disposable that counts its `dispose()` calls (not idempotent on purpose, so a container that
/// disposes a member twice is caught).
final class CountingDisposable: Disposable {
    let counter = Counter()

    var disposeCount: Int { counter.value }

    func dispose() {
        counter.increment()
    }
}

/// A disposable that appends its name to a shared log, to check disposal order.
final class LoggingDisposable: Disposable {
    private let name: String
    private let log: DisposalLog

    init(_ name: String, log: DisposalLog) {
        self.name = name
        self.log = log
    }

    func dispose() {
        log.append(name)
    }
}

final class DisposalLog: Sendable {
    private let entries = Mutex<[String]>([])

    var names: [String] { entries.withAnnotatedLock { $0 } }

    func append(_ name: String) {
        entries.withAnnotatedLock { $0.append(name) }
    }
}
