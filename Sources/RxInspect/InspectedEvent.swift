@_spi(RxBlocking) import RxSwift

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One notification seen by an `inspect(_:)` stage, as an ``Inspector`` recorded it.
public struct InspectedEvent: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case subscribe, next, error, completed, dispose
    }

    /// What happened.
    public let kind: Kind
    /// For `next`, `String(describing:)` of the element; for `error`, of the error; otherwise `nil`.
    public let value: String?
    /// When, on the inspector's ``InspectorClock``.
    public let time: Int
    /// The subscription it belongs to: every subscription to an `inspect` stage gets its own number.
    public let subscription: Int
    /// The thread it happened on.
    public let thread: InspectedThread

    /// Makes an event (the inspector makes them; public for tests that compare whole timelines).
    public init(_ kind: Kind, _ value: String? = nil, time: Int, subscription: Int, thread: InspectedThread) {
        self.kind = kind
        self.value = value
        self.time = time
        self.subscription = subscription
        self.thread = thread
    }

    /// For example `#3 next(2) @ 210 on main`.
    public var description: String {
        let what = value.map { "\(kind.rawValue)(\($0))" } ?? kind.rawValue
        return "#\(subscription) \(what) @ \(time) on \(thread)"
    }
}

/// The thread an event happened on: the main thread, or another one by its `pthread_self()` value.
///
/// A thread's id, not its name: reading a name on Linux reads a file under `/proc`, too dear per event.
public struct InspectedThread: Sendable, Hashable, CustomStringConvertible {
    /// Whether it is the main thread.
    public let isMain: Bool
    /// `pthread_self()` as a number.
    public let id: UInt

    /// The calling thread.
    public static var current: InspectedThread {
        // The library's answer, cached per thread (a main-queue block counts as main, as for
        // `MainScheduler`).
        #if canImport(Darwin)
            let id = UInt(bitPattern: Int(bitPattern: pthread_self()))
        #else
            let id = UInt(pthread_self())
        #endif
        return InspectedThread(isMain: MainThreadPump.isOnMainThread, id: id)
    }

    /// `main`, or `thread 0x…`.
    public var description: String {
        isMain ? "main" : "thread 0x" + String(id, radix: 16)
    }
}
