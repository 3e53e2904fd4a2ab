import RxSwift

/// Where an ``Inspector`` reads the time of each event it records.
///
/// Times are integers in the clock's own unit: nanoseconds for ``continuous`` (counted from the
/// clock's creation), virtual ticks for a virtual-time scheduler (``virtual(_:)``). Rendering to
/// marbles and exporting take a frame length in the same unit.
public struct InspectorClock: Sendable {
    /// The current time.
    public let now: @Sendable () -> Int

    /// A clock reading `now`.
    public init(now: @escaping @Sendable () -> Int) {
        self.now = now
    }

    /// `ContinuousClock`, in nanoseconds since this value was made.
    public static var continuous: InspectorClock {
        let clock = ContinuousClock()
        let start = clock.now
        return InspectorClock {
            let elapsed = start.duration(to: clock.now).components
            return Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000)
        }
    }

    /// The virtual clock of `scheduler` (for example RxTest's `TestScheduler`), in its ticks.
    public static func virtual<Converter>(_ scheduler: VirtualTimeScheduler<Converter>) -> InspectorClock
    where Converter.VirtualTimeUnit == Int {
        InspectorClock { [scheduler] in scheduler.clock }
    }
}
