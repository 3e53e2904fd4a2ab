import Synchronization

#if DEBUG
    /// Where a source that checks the grammar was created, and whether it has reported a violation
    /// yet: each source reports once, however many subscriptions break the grammar.
    final class GrammarSource: Sendable {
        private let reported = Atomic<Bool>(false)
        let file: StaticString
        let line: UInt

        init(file: StaticString, line: UInt) {
            self.file = file
            self.line = line
        }

        func report(_ problem: String) {
            guard !reported.exchange(true, ordering: .acquiringAndReleasing) else { return }
            Hooks.grammarViolationHandler("Rx grammar violation: \(problem) (`Observable.create` at \(file):\(line)).")
        }
    }

    /// Debug-build checks of what a producer sends into an observer the library handed out
    /// (`Observable.create`): a `next` after a terminal event, a second terminal event, and delivery
    /// from two threads at once or re-entrantly; reported once per source to
    /// ``Hooks/grammarViolationHandler``. A class held in a constant: stored inline in the sink, it
    /// would be read plainly, a race of its own in the thread sanitizer's eyes.
    final class GrammarChecker: Sendable {
        private static var terminatedBit: UInt { 1 }

        private let source: GrammarSource
        private let flags = Atomic<UInt>(0)
        private let deliveringThread = Atomic<UInt>(0)

        init(source: GrammarSource) {
            self.source = source
        }

        /// Call before delivering; pass the result to ``leave(_:)`` afterwards.
        func enter(terminal: Bool) -> Bool {
            let me = currentThreadID()
            let previous = deliveringThread.compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
            if !previous.exchanged {
                report(
                    previous.original == me
                        ? "re-entrant delivery: the observer of `Observable.create` was called from inside its own delivery"
                        : "concurrent delivery: the observer of `Observable.create` was called from two threads at once"
                )
            }
            let old =
                terminal
                ? flags.bitwiseOr(Self.terminatedBit, ordering: .acquiringAndReleasing).oldValue
                : flags.load(ordering: .acquiring)
            if old & Self.terminatedBit != 0 {
                report(
                    terminal
                        ? "two terminal events were sent to the observer of `Observable.create`"
                        : "`next` was sent after a terminal event to the observer of `Observable.create`")
            }
            return previous.exchanged
        }

        func leave(_ entered: Bool) {
            if entered { deliveringThread.store(0, ordering: .releasing) }
        }

        private func report(_ problem: String) {
            source.report(problem)
        }
    }
#endif

/// Whether `Observable.create` puts its own sink, which checks the grammar in debug builds, between
/// its closure and a downstream sink that guards its input anyway (see `CreateObservable`). Always
/// in debug builds, unless a test turns it off to run the path release builds take; never in release
/// builds.
@_spi(RxInternal)
public enum CreateGrammarChecks {
    #if DEBUG
        private static let enabled = Atomic<Bool>(true)

        /// Debug builds only: `false` makes `create` hand its closure the downstream sink directly
        /// where release builds do. For tests; restore it afterwards.
        public static var isEnabled: Bool {
            get { enabled.load(ordering: .relaxed) }
            set { enabled.store(newValue, ordering: .relaxed) }
        }
    #else
        @inline(__always)
        public static var isEnabled: Bool { false }
    #endif
}
