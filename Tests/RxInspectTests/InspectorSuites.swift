import RxInspect
import RxSwift
import RxTest
import Synchronization
import Testing

/// One attached inspector at a time per process: every suite that attaches one is nested here, and
/// this parent runs them one after another.
// Leak-checked as every Swift Testing suite of the package that makes subscriptions: the check's gate
// keeps them from overlapping the other leak-checked tests (whose counts are process-wide).
@Suite(.serialized, .leakChecked) struct InspectorSuites {}

/// A `TestScheduler` and an inspector on its virtual clock, attached for the duration of `body`.
func withVirtualInspector<Result>(
    capacity: Int = 1024, _ body: (TestScheduler, Inspector) throws -> Result
) rethrows -> Result {
    let scheduler = TestScheduler(initialClock: 0)
    let inspector = Inspector(capacity: capacity, clock: .virtual(scheduler))
    inspector.attach()
    defer { inspector.detach() }
    return try body(scheduler, inspector)
}

/// Lines written by a logger (`Inspector.log(_:to:)`), from whatever thread the events are on.
final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}
