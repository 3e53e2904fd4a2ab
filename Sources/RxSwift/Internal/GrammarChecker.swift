import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

#if DEBUG
    /// Debug-build checks of what a producer sends into an observer the library handed out
    /// (`Observable.create`): a `next` after a terminal event, a second terminal event, and delivery
    /// from two threads at once or re-entrantly from inside a delivery. Each sink reports its first
    /// violation once, through ``Hooks/grammarViolationHandler``. Release builds compile none of this.
    struct GrammarChecker: ~Copyable {
        private static var terminatedBit: UInt { 1 }
        private static var reportedBit: UInt { 2 }

        private let flags = Atomic<UInt>(0)
        private let deliveringThread = Atomic<UInt>(0)

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
            let old = flags.bitwiseOr(Self.reportedBit, ordering: .acquiringAndReleasing).oldValue
            guard old & Self.reportedBit == 0 else { return }
            Hooks.grammarViolationHandler("Rx grammar violation: \(problem).")
        }

        private func currentThreadID() -> UInt {
            #if canImport(Darwin)
                UInt(bitPattern: pthread_self())
            #else
                UInt(pthread_self())
            #endif
        }
    }
#endif
