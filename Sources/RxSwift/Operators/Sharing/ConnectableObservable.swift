/// An observable sequence whose subscription to its source is started explicitly, by `connect()`.
public protocol ConnectableObservableType: ObservableType {
    /// Connects the observable to its source: from now on every subscriber receives the source's
    /// events, until the returned disposable is disposed (or the source terminates).
    ///
    /// - Returns: The connection; disposing it disconnects from the source.
    func connect() -> Disposable
}

/// An observable sequence that shares one subscription to its source between all its subscribers,
/// started by ``connect()``. Made by ``ObservableType/multicast(_:)``, ``ObservableType/publish()``,
/// ``ObservableType/replay(_:)`` and ``ObservableType/replayAll()``.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType,
    @unchecked Sendable
{
    override init() {}

    /// Connects to the source: every subscriber receives the source's events as long as the
    /// connection lasts. Calling it again while connected returns the same connection. While the
    /// previous connection's subscription to the source may still be live (its disposal still
    /// running on another thread), the new connection subscribes once that one is over (see
    /// "Sharing" in the Contracts article).
    ///
    /// - Returns: The connection; disposing it disconnects from the source.
    public func connect() -> Disposable {
        rxAbstractMethod()
    }

    /// The observable `refCount()` returns, when this connectable has one of its own (see
    /// ``MulticastRefCountObservable``); `nil` for the generic one.
    func makeRefCount() -> Observable<Element>? {
        nil
    }
}

extension ObservableType {
    /// Multicasts the source's events through `subject`: subscribers subscribe to `subject`, and
    /// `connect()` subscribes `subject` to the source.
    ///
    /// The same subject serves every connection, so once the source has terminated, later subscribers
    /// receive what the subject replays for a terminated sequence (its terminal event, with a
    /// `ReplaySubject`'s buffer before it). Disposing the connection unsubscribes from the source.
    ///
    /// - Parameter subject: The subject that relays the source's events.
    /// - Returns: A connectable observable of the subject's elements.
    ///
    /// RxJS: `multicast(subject)` / `connectable`; Combine: `multicast(subject:)`.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        MulticastConnectable(source: asObservable(), makeSubject: { subject }, ownsSubjects: false)
    }

    /// Multicasts the source's events through a subject made by `makeSubject` for each connection.
    ///
    /// The subject is made lazily, by the first subscription or `connect()`; when the connection ends
    /// (it is disposed, or the source terminates), the subject is forgotten and the next subscriber or
    /// connection gets a fresh one. As in RxSwift, a subscriber that arrives after the source has
    /// terminated therefore sees nothing until the next `connect()`.
    ///
    /// - Parameters:
    ///   - makeSubject: Makes the subject for a connection.
    ///   - isolation: Filled in by the compiler (see RxSwift's article “Parameters the compiler fills in”).
    ///   - callerFileID: Filled in by the compiler.
    ///   - callerLine: Filled in by the compiler.
    /// - Returns: A connectable observable of the subject's elements.
    ///
    /// RxJS: `connectable(source, { connector })`; Combine: `multicast(_:)` with a factory.
    public func multicast<Subject: SubjectType>(
        makeSubject: @escaping () -> Subject, isolation: (any Actor)? = #isolation,
        callerFileID: StaticString = #fileID, callerLine: UInt = #line
    )
        -> ConnectableObservable<Subject.Element>
    where Subject.Observer.Element == Element {
        let makeSubject =
            isolation == nil
            ? makeSubject
            : rxIsolationChecked(
                makeSubject, isolation, "multicast(makeSubject:)", callerFileID, callerLine)
        return MulticastConnectable(source: asObservable(), makeSubject: makeSubject, ownsSubjects: true)
    }

    /// A connectable observable that relays the source through a fresh `PublishSubject` per
    /// connection: subscribers receive only the elements emitted after they subscribed.
    ///
    /// - Returns: A connectable observable; call `connect()` to start it.
    ///
    /// RxJS: `publish()`; Combine: `makeConnectable()`.
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject<Element>() })
    }

    /// A connectable observable that relays the source through a fresh `ReplaySubject` per
    /// connection, replaying up to `bufferSize` elements to each new subscriber.
    ///
    /// - Parameter bufferSize: How many of the latest elements are replayed.
    /// - Returns: A connectable observable; call `connect()` to start it.
    ///
    /// RxJS: `publishReplay(bufferSize)`; Combine: no equivalent.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.create(bufferSize: bufferSize) })
    }

    /// A connectable observable that relays the source through a fresh unbounded `ReplaySubject`
    /// per connection, replaying every element of the connection to each new subscriber.
    ///
    /// - Returns: A connectable observable; call `connect()` to start it.
    ///
    /// RxJS: `publishReplay()`; Combine: no equivalent.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject<Element>.createUnbounded() })
    }
}
