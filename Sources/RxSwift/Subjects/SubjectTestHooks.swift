import Synchronization

#if DEBUG
    /// Test-only pauses at the points where a race between threads decides an outcome, so that tests
    /// can reproduce it deterministically.
    enum SubjectTestHooks {
        private static let onCatchingUp = Mutex<(@Sendable () -> Void)?>(nil)

        /// Runs `body` whenever a new subscriber has registered and is about to receive its replay.
        static func whileCatchingUp<Result>(_ hook: @escaping @Sendable () -> Void, _ body: () throws -> Result)
            rethrows -> Result
        {
            onCatchingUp.withAnnotatedLock { $0 = hook }
            defer { onCatchingUp.withAnnotatedLock { $0 = nil } }
            return try body()
        }

        static func catchingUp() {
            let hook = onCatchingUp.withAnnotatedLock { $0 }
            hook?()
        }
    }
#endif
